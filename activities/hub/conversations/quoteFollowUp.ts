import type { Logger } from 'pino';
import { errorInformation, ErrorInformation } from '../../../api/contracts/errors';
import type { FspiopHeaders } from '../../../api/contracts/messages';
import type { CallbackSender, Delivery } from '../delivery/callbacks';
import type { QuoteRecord } from '../db/switchEntities';
import type { Quotes } from './quotes';

/**
 * What the switch answers about a quote outside its workflow: a POST repeated after the conversation
 * ended (spec general rule 3), GET /quotes/{ID}, and quote callbacks with no conversation waiting for
 * them (answers to a forwarded GET), which are routed to their FSPIOP-Destination.
 */
export class QuoteFollowUp {
  constructor(
    private readonly quotes: Quotes,
    private readonly sender: CallbackSender,
    private readonly log: Logger,
  ) {}

  async repeated(quoteId: string, hash: string, requester: string, version: string): Promise<void> {
    const record = await this.quotes.find(quoteId);
    if (!record) return this.error(requester, quoteId, version, errorInformation('quoteIdNotFound', `quote ${quoteId} not found`));
    if (record.requestHash !== hash)
      return this.error(requester, quoteId, version, errorInformation('modifiedRequest', `quote ${quoteId} exists with different details`));
    if (record.responseBody) await this.resend(record, version);
  }

  /** GET /quotes/{ID}: the payer gets the stored answer again; otherwise the GET goes to the destination FSP. */
  async get(quoteId: string, request: { source: string; destination?: string; headers: FspiopHeaders; version: string }): Promise<void> {
    const record = await this.quotes.find(quoteId);
    if (record?.responseBody && request.source === record.payerFsp) return this.resend(record, request.version);
    const destination = request.destination ?? (record && request.source === record.payerFsp ? record.payeeFsp : undefined);
    if (!destination) return this.error(request.source, quoteId, request.version, errorInformation('quoteIdNotFound', `quote ${quoteId} not found`));
    await this.deliver({
      to: destination,
      endpointType: 'FSPIOP_CALLBACK_URL_QUOTES',
      path: `/quotes/${quoteId}`,
      method: 'GET',
      headers: { ...request.headers, 'fspiop-destination': destination },
    });
  }

  /** A PUT /quotes/{ID}[/error] no workflow waits for goes where its sender addressed it. */
  async route(quoteId: string, isError: boolean, callback: { headers: FspiopHeaders; rawBody: string }): Promise<void> {
    const destination = callback.headers['fspiop-destination'];
    if (!destination) {
      this.log.info({ quoteId, from: callback.headers['fspiop-source'] }, 'quote callback without destination and without a waiting quote; dropped');
      return;
    }
    await this.deliver({
      to: destination,
      endpointType: 'FSPIOP_CALLBACK_URL_QUOTES',
      path: `/quotes/${quoteId}${isError ? '/error' : ''}`,
      method: 'PUT',
      headers: callback.headers,
      rawBody: callback.rawBody,
    });
  }

  private resend(record: QuoteRecord, version: string): Promise<void> {
    const body = JSON.parse(record.responseBody!);
    // The payee's answer goes again with its own headers; an error the hub made is made again by the hub.
    const from = record.responseHeaders ? { headers: JSON.parse(record.responseHeaders) } : { fromHub: { resource: 'quotes', version } };
    const isError = 'errorInformation' in body;
    return this.deliver({
      to: record.payerFsp,
      endpointType: 'FSPIOP_CALLBACK_URL_QUOTES',
      path: `/quotes/${record.quoteId}${isError ? '/error' : ''}`,
      method: 'PUT',
      ...from,
      body,
    });
  }

  private error(to: string, quoteId: string, version: string, error: ErrorInformation): Promise<void> {
    return this.deliver({
      to,
      endpointType: 'FSPIOP_CALLBACK_URL_QUOTES',
      path: `/quotes/${quoteId}/error`,
      method: 'PUT',
      fromHub: { resource: 'quotes', version },
      body: { errorInformation: error },
    });
  }

  /** One attempt: the follow-up runs as an activity, and Temporal's retry policy makes the further ones. */
  private deliver(delivery: Delivery): Promise<void> {
    return this.sender.send(delivery);
  }
}
