import {
  ISO20022_VERSION,
  iso20022MediaTypeName,
  type Iso20022MediaResource,
  type Iso20022Operation,
  type Iso20022Resource,
} from '../../shared/contracts/apiType';
import { bodyText, type HttpMethod } from '../../shared/platform/fspiopHttp';
import { iso20022Of } from '../../shared/platform/iso20022Transforms';

/** A message the hub makes itself on a resource with an ISO 20022 form: what the delivery knows of it. */
export interface HubMessage {
  resource: Iso20022Resource;
  method: HttpMethod;
  /** FSPIOP-Source and FSPIOP-Destination, which acmt.024 names as assigner and assignee. */
  source: string;
  destination: string;
  /** The /parties path's template values (partyIdType, partyIdentifier, partySubIdOrType). */
  params?: Record<string, string | undefined>;
  /** The FSPIOP body the hub made; a recorded one (an error resent) comes as its text. */
  body?: unknown;
  rawBody?: string;
}

/** The media type every message the hub makes on an ISO 20022 resource carries, whatever version its requester spoke. */
export const iso20022MediaOf = (resource: Iso20022MediaResource) => ({ mediaTypeName: iso20022MediaTypeName(resource), version: ISO20022_VERSION });

/**
 * The text of a message the hub makes, in ISO 20022 mode: the FSPIOP body it built turned into the ISO 20022 message
 * Mojaloop's services make of theirs (pacs.002 for a transfer's state, its PATCH and every error; acmt.024 for a
 * lookup's error), as ml-api-adapter's notifications and the account lookup service's errors make them. Undefined for
 * a message without a body (a GET).
 */
export async function iso20022TextOf(message: HubMessage): Promise<string | undefined> {
  const fspiop = message.rawBody === undefined ? message.body : (JSON.parse(message.rawBody) as unknown);
  if (fspiop === undefined) return undefined;
  const operation = operationOf(message.method, fspiop);
  const iso = await iso20022Of({ resource: message.resource, operation }, fspiop, {
    source: message.source,
    destination: message.destination,
    ...(message.resource === 'parties' ? { party: partyOf(message.params ?? {}) } : {}),
  });
  // Written as the hub writes all it says, members sorted, so its signature verifies at every Mojaloop SDK.
  return bodyText(iso);
}

function operationOf(method: HttpMethod, body: unknown): Iso20022Operation {
  if (method === 'PATCH') return 'patch';
  if (method === 'POST') return 'post';
  return (body as { errorInformation?: unknown }).errorInformation ? 'putError' : 'put';
}

function partyOf(params: Record<string, string | undefined>): { Type: string; ID: string; SubId?: string } {
  return { Type: params.partyIdType ?? '', ID: params.partyIdentifier ?? '', ...(params.partySubIdOrType ? { SubId: params.partySubIdOrType } : {}) };
}
