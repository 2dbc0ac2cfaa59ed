import Router from '@koa/router';
import type { Context } from 'koa';
import { AccountLookup, isThirdpartyPartyIdType, PartyAddress } from '../../activities/hub/lookup/accountLookup';
import { PartyRouting } from '../../activities/hub/lookup/partyRouting';
import { readJsonBody } from '../http/body';
import { HttpError } from '../../activities/shared/platform/httpError';
import { participantMessage, ResourceRoutes, SwitchDependencies } from './switchApp';
import { encryptedFields } from './encryption';
import type { FspiopRequest } from './headers';
import { accepted, ok } from './replies';
import { validateFspiop, validateThirdparty } from '../../activities/shared/contracts/schemas';

/** The account lookup and routing both lookup resources hand their work to. */
export function partyRoutingFor(deps: SwitchDependencies): PartyRouting {
  return new PartyRouting({
    lookup: new AccountLookup(deps.services.db),
    directory: deps.directory,
    sender: deps.sender,
    log: deps.log,
  });
}

/** A raw path segment percent-decoded, `+` kept (it is a space only in a query string); bad encoding is 400 (3101). */
export function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    throw new HttpError(400, 'malformedSyntax', `path segment "${segment}" is not valid percent-encoding`);
  }
}

/**
 * A party identifier or sub-id from the path. Document 2 (Party addressing) allows no `/` or `?` in either, because
 * both stand in the URI: one that arrives percent-encoded is refused (3101) rather than decoded into an identifier
 * that no path can address.
 */
function partySegment(segment: string, schema: 'PartyIdentifier' | 'PartySubIdOrType', where: string): string {
  const value = validateFspiop<string>(schema, decodeSegment(segment), where);
  if (/[/?]/.test(value)) throw new HttpError(400, 'malformedSyntax', `${where} holds a / or ?, which a party identifier may not`);
  return value;
}

/**
 * The party a /participants or /parties path names, checked against the FSPIOP types. The values come from the
 * raw path: the router would read `+` as a space, and an MSISDN may start with `+`.
 *
 * {Type} is a PartyIdType of the API the resource belongs to. /participants is also the third-party API's (Document
 * 1), whose PartyIdType adds CONSENT and THIRD_PARTY_LINK, registered, looked up and deleted there; that API defines
 * only /participants/{Type}/{ID} for them, so they take no {SubId}. /parties keeps FSPIOP's: a consent or an account
 * link is no party an FSP could describe, and no third-party participant answers GET /parties for one.
 */
export function partyOf(ctx: Context): PartyAddress {
  const [, resource, type, id, subId] = ctx.path.split('/');
  const hasSubId = ctx.params.SubId !== undefined;
  const partyIdType =
    resource === 'participants'
      ? validateThirdparty<string>('PartyIdType', decodeSegment(type), 'path Type')
      : validateFspiop<string>('PartyIdType', decodeSegment(type), 'path Type');
  if (hasSubId && isThirdpartyPartyIdType(partyIdType)) {
    throw new HttpError(400, 'malformedSyntax', `path SubId: a ${partyIdType} is addressed as /participants/${partyIdType}/{ID}, without a SubId`);
  }
  return {
    partyIdType,
    partyIdentifier: partySegment(id, 'PartyIdentifier', 'path ID'),
    partySubIdOrType: hasSubId ? partySegment(subId, 'PartySubIdOrType', 'path SubId') : undefined,
  };
}

/**
 * /parties (Document 2): the switch routes GET to the party's FSP from its account lookup and the
 * answer (PUT, or PUT .../error) back to the FSP in FSPIOP-Destination, headers and body unchanged.
 */
export const partiesRoutes: ResourceRoutes = (deps) => {
  const routing = partyRoutingFor(deps);
  const router = new Router();
  // The account lookup service refuses a lookup from a sender it does not know as malformed (mojaloop/project#4109).
  const unknownLookup = (ctx: Context) => (ctx.method === 'GET' ? new HttpError(400, 'malformedSyntax', 'invalid fspiop-source header') : undefined);
  router.use(...participantMessage('parties', deps, unknownLookup));

  const get = (ctx: Context) => {
    const party = partyOf(ctx);
    const fspiop: FspiopRequest = ctx.state.fspiop;
    deps.lookups.take(fspiop.source, () => routing.forwardPartiesGet(fspiop, party), 'party lookup');
    accepted(ctx);
  };

  const put = (isError: boolean) => async (ctx: Context) => {
    const party = partyOf(ctx);
    const request: FspiopRequest = ctx.state.fspiop;
    const { body, text } = await readJsonBody(ctx);
    validateFspiop(isError ? 'ErrorInformationObject' : 'PartiesTypeIDPutResponse', body, 'body', encryptedFields(request), request.contentVersion);
    // The answer goes to whoever asked; without FSPIOP-Destination the switch cannot know who that is.
    const destination = request.destination;
    if (!destination) throw new HttpError(400, 'missingElement', 'header FSPIOP-Destination is required');
    const problem = await deps.directory.unavailable(destination);
    if (problem) throw new HttpError(400, 'destinationFspError', `FSPIOP-Destination ${destination}: ${problem}`);
    deps.lookups.take(request.source, () => routing.forwardPartiesPut({ ...request, destination }, party, text, isError), 'party callback');
    ok(ctx);
  };

  router.get('/parties/:Type/:ID', get);
  router.get('/parties/:Type/:ID/:SubId', get);
  // The error paths first: /parties/{Type}/{ID}/error would also match {SubId}.
  router.put('/parties/:Type/:ID/error', put(true));
  router.put('/parties/:Type/:ID/:SubId/error', put(true));
  router.put('/parties/:Type/:ID', put(false));
  router.put('/parties/:Type/:ID/:SubId', put(false));
  return router;
};
