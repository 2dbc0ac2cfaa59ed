import type { Context, Middleware } from 'koa';
import type { ParticipantSignatures, SignaturePolicy } from '../../activities/hub/participants/signatureKeys';
import { signatureProblem } from '../../activities/shared/platform/jws';
import { readJsonBody } from '../http/body';
import { HttpError } from '../../activities/shared/platform/httpError';
import type { FspiopRequest } from './headers';

/**
 * The end-to-end signature check of a participant's message, where validation is on for its sender (JWS_VALIDATE, or
 * the admin API for one participant): FSPIOP-Signature in Mojaloop's form (activities/shared/platform/jws). It runs after the
 * header checks, which name the sender, and before the route does anything; a message that fails is refused 400 with
 * 3105 and goes no further.
 *
 * Only messages with a body are checked: Mojaloop's SDK signs every one of those (PUT /parties too, once its
 * JWS_SIGN_PUT_PARTIES is on) and none without one (GET, DELETE), whose form has nothing to sign. The refusal is the
 * 400 of Document 2's synchronous errors, never an error callback: a callback would go to the FSPIOP-Source the
 * signature failed to prove, and the message was never accepted for processing.
 *
 * The body is read here, so one that is too large or not JSON gets its own error (3104, 3101) first.
 */
export function fspiopSignature(signatures: ParticipantSignatures): Middleware {
  return async (ctx, next) => {
    const fspiop: FspiopRequest = ctx.state.fspiop;
    const policy = await signatures.policyOf(fspiop.source);
    if (policy.validate) {
      const problem = await problemOf(ctx, fspiop, policy);
      if (problem) throw new HttpError(400, 'invalidSignature', problem);
    }
    await next();
  };
}

async function problemOf(ctx: Context, fspiop: FspiopRequest, policy: SignaturePolicy): Promise<string | undefined> {
  const { body, text } = await readJsonBody(ctx);
  if (body === undefined) return undefined;
  if (!policy.key) return policy.keyProblem;
  const problem = await signatureProblem({ headers: fspiop.headers, body: text }, policy.key);
  if (problem) return problem;
  // At the first hop the signed request must be this one: a signed callback replayed at another {ID}'s path is not.
  const { 'fspiop-uri': uri, 'fspiop-http-method': method } = fspiop.headers;
  if (method !== ctx.method) return `the signed FSPIOP-HTTP-Method ${method} is not this request's ${ctx.method}`;
  if (!signsThisPath(uri, ctx.path)) return `the signed FSPIOP-URI ${uri} is not this request's ${ctx.path}`;
  return undefined;
}

/** The resources Mojaloop's signer (sdk-standard-components' JwsSigner) knows where FSPIOP-URI begins. */
const SIGNER_RESOURCES = new Set([
  'participants',
  'parties',
  'quotes',
  'bulkQuotes',
  'transfers',
  'bulkTransfers',
  'transactionRequests',
  'thirdpartyRequests',
  'authorizations',
  'consents',
  'consentRequests',
]);

/**
 * Whether a signed FSPIOP-URI names the request at `path`. Mojaloop's signer cuts FSPIOP-URI from the URL it sends to
 * with a pattern of its own, never holding the query: from the last segment that is a resource it knows, so
 * `/thirdpartyRequests/authorizations/{ID}` is signed as `/authorizations/{ID}` (the thirdparty-sdk's every
 * authorization); from the host where no segment is one (accounts, services). Either cut of this very path is it.
 */
export function signsThisPath(uri: string, path: string): boolean {
  const signed = uri.split('?')[0];
  if (signed.endsWith(path)) return true;
  const segments = path.split('/');
  for (let at = segments.length - 1; at > 1; at--) if (SIGNER_RESOURCES.has(segments[at])) return signed === `/${segments.slice(at).join('/')}`;
  return false;
}
