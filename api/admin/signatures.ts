import Router from '@koa/router';
import type { SignatureChange } from '../../activities/hub/participants/signatureKeys';
import { readJsonBody } from '../http/body';
import { HttpError } from '../../activities/shared/platform/httpError';
import { needs } from './access/permissions';
import { adminActions, type AdminActionServices } from './adminActions';
import { changes, type FourEyesSettings } from './approvals/fourEyes';

/**
 * The body of PUT /participants/{name}/jws, which central-ledger's document does not have (Mojaloop keeps JWS keys
 * outside its hub): `publicKey`, a PEM public key or null, and `validate`, true, false or null; at least one.
 */
function changeOf(body: unknown): SignatureChange {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw new HttpError(400, 'malformedSyntax', 'body must be an object');
  const { publicKey, validate, ...others } = body as Record<string, unknown>;
  const other = Object.keys(others)[0];
  if (other !== undefined) throw new HttpError(400, 'tooManyElements', `body must NOT have additional property '${other}'`);
  if (publicKey === undefined && validate === undefined) throw new HttpError(400, 'missingElement', "body must have property 'publicKey' or 'validate'");
  if (publicKey !== undefined && publicKey !== null && (typeof publicKey !== 'string' || publicKey.trim() === '')) {
    throw new HttpError(400, 'malformedSyntax', 'body.publicKey must be a PEM public key, or null');
  }
  if (validate !== undefined && validate !== null && typeof validate !== 'boolean') {
    throw new HttpError(400, 'malformedSyntax', 'body.validate must be true, false or null');
  }
  return { ...(publicKey !== undefined && { publicKey }), ...(validate !== undefined && { validate }) } as SignatureChange;
}

/**
 * A participant's end-to-end signature settings: GET shows the key its FSPIOP-Signatures are verified with and whether
 * they are, and where each setting comes from; PUT registers or rotates the key, or turns validation on or off for it.
 */
export function signatureRoutes(services: AdminActionServices, fourEyes?: FourEyesSettings): Router {
  const { signatures } = services;
  const change = changes(adminActions(services), fourEyes);
  const router = new Router();
  router.get('/participants/:name/jws', needs('read'), async (ctx) => {
    ctx.body = await signatures.settingsOf(ctx.params.name);
  });
  router.put('/participants/:name/jws', needs('participants'), async (ctx) => {
    await change(ctx, 'changeSignature', { name: ctx.params.name, change: changeOf((await readJsonBody(ctx)).body) });
  });
  return router;
}
