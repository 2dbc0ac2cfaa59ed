import { TransformFacades } from '@mojaloop/ml-schema-transformer-lib';
import { ilpFor, transactionObjectOf } from '../../activities/dfsp/fspiop/ilp';
import type { QuotesPostRequest, TransfersPostRequest } from '../../activities/shared/contracts/bodies';
import { expirationAt } from '../../activities/shared/contracts/expiry';
import { quoteBody, transferBody, ulid } from './fspiopBodies';

/**
 * ISO 20022 messages as a DFSP in a Mojaloop ISO 20022 scheme makes them: its FSPIOP bodies turned into ISO 20022 by
 * Mojaloop's own transformer, as Mojaloop's SDK does, each chained to the message it answers ($context).
 */
const FSPIOP = TransformFacades.FSPIOP;

/** The media type of an ISO 20022 message of `resource`, as ISO 20022 mode speaks it. */
export const iso20022MediaType = (resource: string) => `application/vnd.interoperability.iso20022.${resource}+json;version=2.0`;

/** The headers an ISO 20022 DFSP sends: Content-Type (and Accept on a request) of the ISO 20022 media type. */
export function iso20022Headers(resource: string, isRequest: boolean): Record<string, string> {
  return { 'content-type': iso20022MediaType(resource), ...(isRequest ? { accept: iso20022MediaType(resource) } : {}) };
}

const addressed = (source: string, destination: string) => ({ 'fspiop-source': source, 'fspiop-destination': destination });

/** acmt.024: the payee FSP's answer to a lookup of one of its MSISDNs. */
export async function partiesAnswer(payeeFsp: string, payerFsp: string, msisdn: string): Promise<Record<string, any>> {
  const body = { party: { partyIdInfo: { partyIdType: 'MSISDN', partyIdentifier: msisdn, fspId: payeeFsp }, name: 'Ada Lovelace' } };
  return (await FSPIOP.parties.put({ body, headers: addressed(payeeFsp, payerFsp), params: { Type: 'MSISDN', ID: msisdn } })).body;
}

/** One payment's messages, quote to fulfilment, with the FSPIOP bodies they stand for. */
export interface Iso20022Payment {
  quote: QuotesPostRequest;
  /** pacs.081 */
  quoteRequest: Record<string, any>;
  /** pacs.082 */
  quoteAnswer: Record<string, any>;
  transfer: TransfersPostRequest;
  /** pacs.008 */
  transferRequest: Record<string, any>;
  /** pacs.002, COMMITTED */
  fulfil: Record<string, any>;
}

/**
 * A payment of `amount` USD from `payerFsp` to `payeeFsp` as ISO 20022 DFSPs make it, its IDs ULIDs (the ISO 20022
 * document admits no other); `expiresInMs` for the transfer.
 */
export async function iso20022Payment(payerFsp: string, payeeFsp: string, amount: string, expiresInMs = 30_000): Promise<Iso20022Payment> {
  const quote = { ...quoteBody(payerFsp, payeeFsp, amount, { quoteId: ulid() }), transactionId: ulid() };
  const quoteRequest = (await FSPIOP.quotes.post({ body: quote })).body;
  const terms = { transferAmount: quote.amount, expiration: expirationAt(Date.now() + 60_000) };
  const { ilpPacket, condition, fulfilment } = ilpFor(transactionObjectOf(quote, terms), 'payee secret');
  const answer = { ...terms, ilpPacket, condition };
  const quoteAnswer = (
    await FSPIOP.quotes.put({ body: answer, params: { ID: quote.quoteId }, headers: addressed(payeeFsp, payerFsp), $context: { isoPostQuote: quoteRequest } })
  ).body;
  const transfer = { ...transferBody(payerFsp, payeeFsp, amount, { condition, expiresInMs, transferId: quote.transactionId }), ilpPacket };
  const transferRequest = (
    await FSPIOP.transfers.post({ body: transfer, headers: addressed(payerFsp, payeeFsp), $context: { isoPostQuoteResponse: quoteAnswer } })
  ).body;
  const fulfil = (await FSPIOP.transfers.put({ body: { transferState: 'COMMITTED', completedTimestamp: new Date().toISOString(), fulfilment } })).body;
  return { quote, quoteRequest, quoteAnswer, transfer, transferRequest, fulfil };
}
