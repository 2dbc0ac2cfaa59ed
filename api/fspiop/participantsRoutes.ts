import Router from '@koa/router';
import type { Context } from 'koa';
import type { PartyIdInfo } from '../../activities/hub/lookup/partyRouting';
import { readJsonBody } from '../http/body';
import { HttpError } from '../../activities/shared/platform/httpError';
import { errorInformation } from '../../activities/shared/contracts/errors';
import { participantMessage, ResourceRoutes, type RouteDependencies } from './switchApp';
import type { FspiopRequest } from './headers';
import { partyOf, partyRoutingFor } from './parties';
import { accepted, ok } from './replies';
import { pathId, validateFspiop, validateThirdparty } from '../../activities/shared/contracts/schemas';

/** The optional `currency` query of GET and DELETE /participants/{Type}/{ID}. */
function currencyOf(ctx: Context): string | undefined {
  const currency = ctx.query.currency;
  return currency === undefined ? undefined : validateFspiop<string>('Currency', currency, 'query currency');
}

/**
 * /participants (Document 2): the switch is the account-lookup system (ALS) and its table the oracle.
 * FSPs register their parties (POST, batch POST), look up which FSP holds a party (GET) and remove
 * their own parties (DELETE); the answer is a PUT callback from the hub. The same requests, in the same
 * `participants` media type, register and find consents and account links (Document 1), as Mojaloop's
 * Auth service sends them.
 */
export const participantsRoutes: ResourceRoutes = (deps) => {
  const router = new Router();
  router.use(...participantMessage('participants', deps, unknownRegistrar));
  lookupRoutes(router, deps);
  ignoredCallbackRoutes(router, deps.log);
  return router;
};

/**
 * A party registered by a sender that is no participant, answered as the account lookup service answers it: without
 * a SubId at once (400, 3200); with one, accepted and answered by an error callback, which finds no endpoint of the
 * sender's and goes no further than the hub's log.
 */
function unknownRegistrar(ctx: Context): HttpError | 'pass' | undefined {
  if (ctx.method !== 'POST') return undefined;
  const segments = ctx.path.split('/').length - 1;
  if (segments === 3) return new HttpError(400, 'idNotFound', REQUESTER_NOT_FOUND);
  return segments === 4 ? 'pass' : undefined;
}

const REQUESTER_NOT_FOUND = 'Requester FSP not found';

/** The requests the ALS serves: parties registered (one or a batch), looked up and removed. */
function lookupRoutes(router: Router, deps: RouteDependencies): void {
  const routing = partyRoutingFor(deps);
  router.post('/participants', async (ctx) => {
    const { body } = await readJsonBody(ctx);
    // The third-party API's form of the request: its entries may also be consents and account links (Document 1).
    const request = validateThirdparty<{ requestId: string; partyList: PartyIdInfo[]; currency?: string }>('ParticipantsPostRequest', body);
    const fspiop: FspiopRequest = ctx.state.fspiop;
    deps.lookups.take(fspiop.source, () => routing.registerBatch(fspiop, request), 'registerBatch');
    accepted(ctx);
  });

  const get = (ctx: Context) => {
    const party = partyOf(ctx);
    const currency = currencyOf(ctx);
    const fspiop: FspiopRequest = ctx.state.fspiop;
    deps.lookups.take(fspiop.source, () => routing.lookupParticipant(fspiop, party, currency), 'lookupParticipant');
    accepted(ctx);
  };
  const post = async (ctx: Context) => {
    const party = partyOf(ctx);
    const { body } = await readJsonBody(ctx);
    const fspiop: FspiopRequest = ctx.state.fspiop;
    const request = validateFspiop<{ fspId: string; currency?: string }>('ParticipantsTypeIDSubIDPostRequest', body, 'body', [], fspiop.contentVersion);
    const register = fspiop.unknownSource
      ? () => routing.refuseRegistration(fspiop, party, errorInformation('idNotFound', REQUESTER_NOT_FOUND))
      : () => routing.registerParticipant(fspiop, party, request);
    deps.lookups.take(fspiop.source, register, 'registerParticipant');
    accepted(ctx);
  };
  const remove = (ctx: Context) => {
    const party = partyOf(ctx);
    const currency = currencyOf(ctx);
    const fspiop: FspiopRequest = ctx.state.fspiop;
    deps.lookups.take(fspiop.source, () => routing.removeParticipant(fspiop, party, currency), 'removeParticipant');
    accepted(ctx);
  };
  for (const path of ['/participants/:Type/:ID', '/participants/:Type/:ID/:SubId']) {
    router.get(path, get);
    router.post(path, post);
    router.delete(path, remove);
  }
}

/**
 * Callbacks to the ALS itself: this switch is the oracle and asks nobody, so none is expected. They are
 * acknowledged (a DFSP must not see its callback refused) and dropped, once they are what the API says they are: a
 * malformed one is refused as any other message is, so its sender learns of the fault.
 */
function ignoredCallbackRoutes(router: Router, log: RouteDependencies['log']): void {
  const ignore = (check: (ctx: Context, body: unknown) => void) => async (ctx: Context) => {
    const { body } = await readJsonBody(ctx);
    check(ctx, body);
    log.info({ source: ctx.state.fspiop.source, path: ctx.path }, 'unexpected /participants callback ignored');
    ok(ctx);
  };
  const partyError = ignore((ctx, body) => {
    partyOf(ctx);
    validateFspiop('ErrorInformationObject', body, 'body', [], ctx.state.fspiop.contentVersion);
  });
  const partyAnswer = ignore((ctx, body) => {
    partyOf(ctx);
    validateFspiop('ParticipantsTypeIDPutResponse', body, 'body', [], ctx.state.fspiop.contentVersion);
  });
  // A batch's callback names its request by ID alone; `check` refuses a body its schema does not allow.
  const batchCallback = (check: (body: unknown) => void) =>
    ignore((ctx, body) => {
      pathId(ctx.params.ID);
      check(body);
    });
  // The error paths first: /participants/{ID}/error would also match {Type}/{ID}, and …/{ID}/error {SubId}.
  router.put(
    '/participants/:ID/error',
    batchCallback((body) => validateFspiop('ErrorInformationObject', body)),
  );
  router.put('/participants/:Type/:ID/error', partyError);
  router.put('/participants/:Type/:ID/:SubId/error', partyError);
  // The third-party API's form of the batch answer: its entries may also be consents and account links.
  router.put(
    '/participants/:ID',
    batchCallback((body) => validateThirdparty('ParticipantsIDPutResponse', body)),
  );
  router.put('/participants/:Type/:ID', partyAnswer);
  router.put('/participants/:Type/:ID/:SubId', partyAnswer);
}
