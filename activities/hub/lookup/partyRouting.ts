import type { FspiopEndpointType } from '../../shared/contracts/endpoints';
import type { Resource } from '../../shared/contracts/conversations';
import type { Logger } from 'pino';
import { errorInformation, type ErrorInformation } from '../../shared/contracts/errors';
import { AccountLookup, PartyAddress } from './accountLookup';
import { CallbackSender, Delivery, DeliveryError } from '../delivery/callbacks';
import type { ParticipantDirectory } from '../delivery/directory';
import { HubError } from '../../shared/platform/hubError';

/** The template values of the /participants and /parties endpoint types. */
function templateParams(party: PartyAddress): Record<string, string | undefined> {
  return { partyIdType: party.partyIdType, partyIdentifier: party.partyIdentifier, partySubIdOrType: party.partySubIdOrType };
}

const describe = (party: PartyAddress) => [party.partyIdType, party.partyIdentifier, party.partySubIdOrType].filter(Boolean).join('/');

/** Why an entry was not registered: another FSP holds it, which is not named. */
const heldElsewhere = (party: PartyAddress) => `${describe(party)} is registered to another FSP`;

/** Who asked, as the gateway's header check recorded it (api/fspiop/headers.ts LookupRequest). */
export interface LookupRequest {
  resource: Resource;
  source: string;
  destination?: string;
  version: string;
  /** The forwardable headers, lower-case. */
  headers: Record<string, string>;
}

/** One entry of POST /participants (PartyIdInfo). */
export interface PartyIdInfo extends PartyAddress {
  fspId?: string;
  extensionList?: unknown;
}

export interface PartyRoutingDependencies {
  lookup: AccountLookup;
  directory: ParticipantDirectory;
  sender: CallbackSender;
  log: Logger;
}

/**
 * The stateless lookups of the switch (Document 2, /participants and /parties), run after the gateway has
 * acknowledged: the built-in oracle answers /participants itself and routes /parties by it. They behave as
 * Mojaloop's account-lookup service does, so its DFSPs work unchanged. Every method ends in an answer: failures are
 * reported to the requester when that is still possible, and logged.
 */
export class PartyRouting {
  constructor(private readonly deps: PartyRoutingDependencies) {}

  /** POST /participants: each entry is registered to the requester; entries naming another FSP, or held by one, fail alone. */
  async registerBatch(request: LookupRequest, body: { requestId: string; partyList: PartyIdInfo[]; currency?: string }): Promise<void> {
    const params = { requestId: body.requestId };
    await this.answeringFailures(request, 'FSPIOP_CALLBACK_URL_PARTICIPANT_BATCH_PUT_ERROR', params, async () => {
      const accepted = body.partyList.filter((party) => party.fspId === request.source);
      const refused = await this.deps.lookup.register(accepted, request.source, body.currency);
      // As Mojaloop's ALS: an entry for another FSP is reported 3204 beside the successes.
      const partyList = body.partyList.map((party) => {
        if (party.fspId !== request.source) {
          const detail = `fspId ${party.fspId ?? '(none)'} is not the FSPIOP-Source ${request.source}`;
          return { partyId: party, errorInformation: errorInformation('partyNotFound', detail) };
        }
        if (refused.includes(party)) return { partyId: party, errorInformation: errorInformation('addPartyInfoError', heldElsewhere(party)) };
        return { partyId: party };
      });
      await this.callback(request, 'FSPIOP_CALLBACK_URL_PARTICIPANT_BATCH_PUT', params, { partyList, ...(body.currency ? { currency: body.currency } : {}) });
    });
  }

  /** GET /participants/{Type}/{ID}[/{SubId}]: the oracle's answer, `{ fspId }`, or 3204. */
  async lookupParticipant(request: LookupRequest, party: PartyAddress, currency?: string): Promise<void> {
    const [put, error] = participantEndpoints(party);
    await this.answeringFailures(request, error, templateParams(party), async () => {
      const fspId = await this.deps.lookup.owner(party, currency);
      if (!fspId) {
        await this.callback(request, error, templateParams(party), { errorInformation: errorInformation('partyNotFound') });
        return;
      }
      await this.callback(request, put, templateParams(party), { fspId });
    });
  }

  /** POST /participants/{Type}/{ID}[/{SubId}]: an FSP registers its own party, for itself, and takes over no entry another FSP holds (3003). */
  async registerParticipant(request: LookupRequest, party: PartyAddress, body: { fspId: string; currency?: string }): Promise<void> {
    const [put, error] = participantEndpoints(party);
    await this.answeringFailures(request, error, templateParams(party), async () => {
      if (body.fspId !== request.source) {
        const detail = `fspId ${body.fspId} is not the FSPIOP-Source ${request.source}`;
        await this.callback(request, error, templateParams(party), { errorInformation: errorInformation('addPartyInfoError', detail) });
        return;
      }
      if ((await this.deps.lookup.register([party], body.fspId, body.currency)).length > 0) {
        await this.callback(request, error, templateParams(party), { errorInformation: errorInformation('addPartyInfoError', heldElsewhere(party)) });
        return;
      }
      await this.callback(request, put, templateParams(party), { fspId: body.fspId });
    });
  }

  /** A registration refused before it is read: the error callback alone. */
  async refuseRegistration(request: LookupRequest, party: PartyAddress, refusal: ErrorInformation): Promise<void> {
    const [, error] = participantEndpoints(party);
    await this.answeringFailures(request, error, templateParams(party), () =>
      this.callback(request, error, templateParams(party), { errorInformation: refusal }),
    );
  }

  /** DELETE /participants/{Type}/{ID}[/{SubId}]: only the party's current FSP may; the callback has no fspId. */
  async removeParticipant(request: LookupRequest, party: PartyAddress, currency?: string): Promise<void> {
    const [put, error] = participantEndpoints(party);
    await this.answeringFailures(request, error, templateParams(party), async () => {
      const outcome = await this.deps.lookup.remove(party, request.source, currency);
      if (outcome !== 'removed') {
        const detail = outcome === 'notFound' ? 'No participant found for the party' : `The party ${describe(party)} does not belong to the requesting FSP`;
        await this.callback(request, error, templateParams(party), { errorInformation: errorInformation('deletePartyInfoError', detail) });
        return;
      }
      // Mojaloop's ALS answers on the PUT endpoint; a DFSP that registered the DELETE one gets it there.
      const deleteType = party.partySubIdOrType ? 'FSPIOP_CALLBACK_URL_PARTICIPANT_SUB_ID_DELETE' : put;
      const type = (await this.deps.directory.endpoint(request.source, deleteType)) ? deleteType : put;
      await this.callback(request, type, templateParams(party), {});
    });
  }

  /**
   * GET /parties/{Type}/{ID}[/{SubId}]: forwarded, headers unchanged, to the FSP the requester named in
   * FSPIOP-Destination, or else to the party's FSP from the oracle with FSPIOP-Destination filled in
   * (Document 2, Endpoints rule 6). Nobody to ask: 3204 from the hub.
   */
  async forwardPartiesGet(request: LookupRequest, party: PartyAddress): Promise<void> {
    const [get, , error] = partiesEndpoints(party);
    await this.answeringFailures(request, error, templateParams(party), async () => {
      const named = request.destination && request.destination !== this.deps.sender.hubId ? request.destination : undefined;
      let owners: string[];
      if (named && !(await this.deps.directory.unavailable(named))) {
        owners = [named];
      } else {
        owners = [];
        for (const fspId of await this.deps.lookup.owners(party)) {
          if (!(await this.deps.directory.unavailable(fspId))) owners.push(fspId);
        }
      }
      if (owners.length === 0) {
        await this.callback(request, error, templateParams(party), { errorInformation: errorInformation('partyNotFound') });
        return;
      }
      // As Mojaloop's ALS: a party held in several currencies by different FSPs is asked of each.
      const sent = await Promise.allSettled(
        owners.map((fspId) =>
          this.deps.sender.sendWithRetry({
            to: fspId,
            endpointType: get,
            params: templateParams(party),
            method: 'GET',
            headers: request.headers,
          }),
        ),
      );
      if (sent.every((result) => result.status === 'rejected')) {
        // Nobody will answer: tell the requester now rather than leave it to its timeout.
        const reason = (sent[0] as PromiseRejectedResult).reason as Error;
        const info = reason instanceof HubError ? reason.errorInformation : errorInformation('destinationCommunicationError', reason.message);
        await this.callback(request, error, templateParams(party), { errorInformation: info });
      }
    });
  }

  /** PUT /parties/{Type}/{ID}[/{SubId}][/error]: the owner's answer, routed unchanged to FSPIOP-Destination. */
  async forwardPartiesPut(request: LookupRequest & { destination: string }, party: PartyAddress, rawBody: string, isError: boolean): Promise<void> {
    const [, put, error] = partiesEndpoints(party);
    const delivery: Delivery = {
      to: request.destination,
      endpointType: isError ? error : put,
      params: templateParams(party),
      method: 'PUT',
      headers: request.headers,
      rawBody,
    };
    await this.deps.sender.sendWithRetry(delivery).catch((err: Error) => {
      this.deps.log.warn({ to: request.destination, party: describe(party), err: err.message }, 'parties callback not delivered');
    });
  }

  /** A message from the hub to the requester: FSPIOP-Source is the hub, FSPIOP-Destination the requester. */
  private callback(request: LookupRequest, endpointType: FspiopEndpointType, params: Record<string, string | undefined>, body: unknown): Promise<void> {
    return this.deps.sender.sendWithRetry({
      to: request.source,
      endpointType,
      params,
      method: 'PUT',
      fromHub: { resource: request.resource, version: request.version },
      body,
    });
  }

  /**
   * Runs `work`; if the hub itself fails (database down), the requester gets an error callback, since the
   * request was already acknowledged. A delivery that fails is only logged: there is no one else to tell.
   */
  private async answeringFailures(
    request: LookupRequest,
    errorEndpoint: FspiopEndpointType,
    params: Record<string, string | undefined>,
    work: () => Promise<void>,
  ): Promise<void> {
    try {
      await work();
    } catch (err) {
      if (err instanceof HubError || err instanceof DeliveryError) {
        this.deps.log.warn({ source: request.source, resource: request.resource, params, err: (err as Error).message }, 'lookup callback not delivered');
        return;
      }
      this.deps.log.error({ source: request.source, resource: request.resource, params, err }, 'lookup failed');
      await this.callback(request, errorEndpoint, params, { errorInformation: errorInformation('internalServerError') }).catch((error: Error) => {
        this.deps.log.warn({ source: request.source, err: error.message }, 'lookup error callback not delivered');
      });
    }
  }
}

/** [PUT, PUT error] endpoint types of /participants/{Type}/{ID}[/{SubId}]. */
function participantEndpoints(party: PartyAddress): [FspiopEndpointType, FspiopEndpointType] {
  return party.partySubIdOrType
    ? ['FSPIOP_CALLBACK_URL_PARTICIPANT_SUB_ID_PUT', 'FSPIOP_CALLBACK_URL_PARTICIPANT_SUB_ID_PUT_ERROR']
    : ['FSPIOP_CALLBACK_URL_PARTICIPANT_PUT', 'FSPIOP_CALLBACK_URL_PARTICIPANT_PUT_ERROR'];
}

/** [GET, PUT, PUT error] endpoint types of /parties/{Type}/{ID}[/{SubId}]. */
function partiesEndpoints(party: PartyAddress): [FspiopEndpointType, FspiopEndpointType, FspiopEndpointType] {
  return party.partySubIdOrType
    ? ['FSPIOP_CALLBACK_URL_PARTIES_SUB_ID_GET', 'FSPIOP_CALLBACK_URL_PARTIES_SUB_ID_PUT', 'FSPIOP_CALLBACK_URL_PARTIES_SUB_ID_PUT_ERROR']
    : ['FSPIOP_CALLBACK_URL_PARTIES_GET', 'FSPIOP_CALLBACK_URL_PARTIES_PUT', 'FSPIOP_CALLBACK_URL_PARTIES_PUT_ERROR'];
}
