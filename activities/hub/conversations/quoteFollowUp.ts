import type { Logger } from 'pino';
import { addressOf, quoting, QuoteResource } from '../../shared/contracts/conversations';
import { errorInformation } from '../../shared/contracts/errors';
import type { FspiopHeaders, RelayedCallback } from '../../shared/contracts/messages';
import type { CallbackSender } from '../delivery/callbacks';
import type { QuoteRecord } from '../db/switchEntities';
import type { Quotes } from './quotes';
import type { RecordedAnswers, RecordedConversation } from './recordedAnswers';

/**
 * What the switch answers about a quote or bulk quote outside its workflow: a POST repeated after the
 * conversation ended (spec general rule 3), GET /{resource}/{ID}, and callbacks with no conversation waiting for
 * them (answers to a forwarded GET), which go from the payee to the payer only. Each message is sent once: the
 * follow-up runs as an activity, and Temporal's retry policy makes the further attempts.
 */
export class QuoteFollowUp {
  constructor(
    private readonly quotes: Quotes,
    private readonly sender: CallbackSender,
    private readonly answers: RecordedAnswers,
    private readonly log: Logger,
  ) {}

  async repeated(resource: QuoteResource, id: string, hash: string, requester: string, version: string): Promise<void> {
    const record = await this.quotes.find(resource, id);
    await this.answers.repeated(conversation(resource, id), record, hash, { source: requester, version }, () => this.resend(record!, version));
  }

  /** GET /{resource}/{ID}: the payer gets the stored answer again; otherwise the GET goes to the destination FSP. */
  async get(resource: QuoteResource, id: string, request: { source: string; destination?: string; headers: FspiopHeaders; version: string }): Promise<void> {
    const record = await this.quotes.find(resource, id);
    if (record?.responseBody && request.source === record.payerFsp) return this.resend(record, request.version);
    const destination = request.destination ?? (record && request.source === record.payerFsp ? record.payeeFsp : undefined);
    if (!destination) return this.notFound(resource, id, request.source, request.version);
    await this.sender.send({
      to: destination,
      ...addressOf(resource, 'get', id),
      method: 'GET',
      headers: request.headers,
    });
  }

  /**
   * A PUT /{resource}/{ID}[/error] no workflow waits for (a late answer, or the answer to a GET the switch passed on),
   * checked against the record as the workflow checks it: only the payee may answer, and only to the payer; anything
   * else is refused to its sender (3100). One about a quote the switch never saw is answered as a GET of it is (3205):
   * Mojaloop's quoting service, too, answers an update of a quote it has no record of with an error to its sender.
   */
  async route(resource: QuoteResource, id: string, isError: boolean, callback: RelayedCallback, version: string): Promise<void> {
    const from = callback.headers['fspiop-source'];
    const record = await this.quotes.find(resource, id);
    if (!record) return this.notFound(resource, id, from, version);
    const to = callback.headers['fspiop-destination'] ?? record.payerFsp;
    const refusal = refusalOf(record, from, to);
    if (refusal) {
      this.log.info({ resource, id, from, to }, 'quote callback refused: not from the payee to the payer');
      return this.sender.sendHubError(from, resource, id, version, errorInformation('validationError', refusal));
    }
    await this.sender.send({ to, ...addressOf(resource, isError ? 'error' : 'answer', id), method: 'PUT', ...callback });
  }

  /** The payee's answer (or the hub's own error) to the payer again. */
  private resend(record: QuoteRecord, version: string): Promise<void> {
    return this.answers.resend(conversation(record.resource, record.quoteId), record.payerFsp, record, record.state !== 'ACCEPTED', version);
  }

  private notFound(resource: QuoteResource, id: string, to: string, version: string): Promise<void> {
    return this.answers.notFound(conversation(resource, id), { source: to, version });
  }
}

function conversation(resource: QuoteResource, id: string): RecordedConversation {
  return { resource, id, noun: quoting[resource].noun, idNotFound: quoting[resource].idNotFound };
}

/** Why a callback about a recorded quote may not go on, or undefined for the payee's answer to the payer. */
function refusalOf(record: QuoteRecord, from: string, to: string): string | undefined {
  const { noun } = quoting[record.resource];
  if (from !== record.payeeFsp) return `only the payee ${record.payeeFsp} may answer ${noun} ${record.quoteId}`;
  if (to !== record.payerFsp) return `${noun} ${record.quoteId} is answered to its payer only`;
  return undefined;
}
