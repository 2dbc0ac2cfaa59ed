import type { Iso20022Operation, Iso20022Resource } from '../contracts/apiType';

/**
 * The edge between ISO 20022 and the hub's FSPIOP model, made by Mojaloop's own transformer
 * (@mojaloop/ml-schema-transformer-lib), as its ml-api-adapter, quoting-service and account-lookup-service make it.
 * Workflows never see it: the gateway hands them the FSPIOP reading of what arrives, and the delivery turns what the
 * hub says itself into ISO 20022 as it sends it.
 */
type Transformer = typeof import('@mojaloop/ml-schema-transformer-lib');

/** What a message is: its resource and the FSPIOP operation it stands for. */
export interface Iso20022Message {
  resource: Iso20022Resource;
  operation: Iso20022Operation;
}

/** The addressing some transforms read: acmt.024 names its assigner and assignee, and the party looked up. */
export interface Iso20022Addressing {
  source: string;
  destination: string;
  /** The party of a /parties path. */
  party?: { Type: string; ID: string; SubId?: string };
}

let loaded: Promise<Transformer> | undefined;

/** Loaded at the first ISO 20022 message: loading takes a second and more, which an FSPIOP deployment need not pay. */
const transformer = () => (loaded ??= import('@mojaloop/ml-schema-transformer-lib'));

type Facade = (source: { body: unknown; headers?: unknown; params?: unknown }) => Promise<{ body: unknown }>;

async function facadeOf(direction: 'FSPIOP' | 'FSPIOPISO20022', { resource, operation }: Iso20022Message): Promise<Facade> {
  const facades = (await transformer()).TransformFacades[direction] as unknown as Record<string, Record<string, Facade | undefined>>;
  const facade = facades[resource]?.[operation];
  if (!facade) throw new Error(`no ISO 20022 form of ${operation} ${resource}`);
  return facade;
}

/** The FSPIOP body an ISO 20022 message stands for; throws what the transformer throws on a message it cannot read. */
export async function fspiopOf(message: Iso20022Message, isoBody: unknown): Promise<unknown> {
  return (await (await facadeOf('FSPIOPISO20022', message))({ body: isoBody })).body;
}

/**
 * The ISO 20022 message of an FSPIOP body the hub made (an error, a transfer's state, a PATCH notification). A quote's
 * answer and a transfer's request have no such transform without the ISO messages before them (the transformer's
 * `$context`): the hub never makes either, it only passes them on.
 */
export async function iso20022Of(message: Iso20022Message, fspiopBody: unknown, addressing: Iso20022Addressing): Promise<unknown> {
  const headers = { 'fspiop-source': addressing.source, 'fspiop-destination': addressing.destination };
  return (await (await facadeOf('FSPIOP', message))({ body: fspiopBody, headers, params: addressing.party ?? {} })).body;
}
