import crypto from 'node:crypto';
import { ilpFor, transactionObjectOf } from '../../activities/dfsp/fspiop/ilp';
import type { SimulatedDfsp } from './dfsp';
import { quoteBody, transferBody, type Currency } from './fspiopBodies';
import type { Sender } from './switchHarness';
import { expirationAt } from '../../activities/shared/contracts/expiry';

/** A W3C traceparent of the trace `traceId`, as a participant's tracing sends it. */
export const traceparentOf = (traceId: string) => `00-${traceId}-${crypto.randomBytes(8).toString('hex')}-01`;

/**
 * Payments as DFSPs make them, quote first: the payee quotes with an ILP packet whose transaction names the quote, and
 * fulfils the transfer of it; each of the payer's messages carries its trace (traceparent). What the operator's traces
 * read a whole payment from.
 */
export class QuotedPayments {
  private readonly fulfilments = new Map<string, string>();

  constructor(
    private readonly hub: Sender,
    private readonly secret = 'payee secret',
  ) {}

  /** From now on `payee` quotes what it is asked and fulfils each transfer of one of its quotes, COMMITTED. */
  quotes(payee: SimulatedDfsp): SimulatedDfsp {
    payee.react(async (request) => {
      if (request.method === 'POST' && request.path === '/quotes') {
        const answer = { transferAmount: request.body.amount, expiration: expirationAt(Date.now() + 60_000) };
        const { ilpPacket, condition, fulfilment } = ilpFor(transactionObjectOf(request.body, answer), this.secret);
        this.fulfilments.set(condition, fulfilment);
        await this.hub.fspiop('PUT', `/quotes/${request.body.quoteId}`, {
          source: payee.name,
          destination: request.body.payer.partyIdInfo.fspId,
          body: { ...answer, ilpPacket, condition },
        });
      }
      if (request.method === 'POST' && request.path === '/transfers') {
        await this.hub.fspiop('PUT', `/transfers/${request.body.transferId}`, {
          source: payee.name,
          destination: request.body.payerFsp,
          body: { fulfilment: this.fulfilments.get(request.body.condition), completedTimestamp: new Date().toISOString(), transferState: 'COMMITTED' },
        });
      }
    });
    return payee;
  }

  /** `payer` quotes and pays `payee`; the transfer's ID, and how the switch answered the payer: its state or error code. */
  async pay(
    payer: SimulatedDfsp,
    payee: SimulatedDfsp,
    amount: string,
    traceId = crypto.randomBytes(16).toString('hex'),
    currency: Currency = 'USD',
  ): Promise<{ transferId: string; state?: string; errorCode?: string }> {
    const quote = { ...quoteBody(payer.name, payee.name, amount), amount: { amount, currency } };
    const headers = { traceparent: traceparentOf(traceId) };
    const asked = await this.hub.fspiop('POST', '/quotes', { source: payer.name, destination: payee.name, body: quote, headers });
    if (asked.status !== 202) return { transferId: '', errorCode: asked.body?.errorInformation?.errorCode };
    const quoted = await payer.waitFor((r) => r.method === 'PUT' && r.path.startsWith(`/quotes/${quote.quoteId}`), 20_000, 'quote answer');
    if (quoted.path.endsWith('/error')) throw new Error(`the quote failed: ${JSON.stringify(quoted.body)}`);
    const transfer = { ...transferBody(payer.name, payee.name, amount, { currency }), ilpPacket: quoted.body.ilpPacket, condition: quoted.body.condition };
    const ack = await this.hub.fspiop('POST', '/transfers', { source: payer.name, destination: payee.name, body: transfer, headers });
    if (ack.status !== 202) return { transferId: transfer.transferId, errorCode: ack.body?.errorInformation?.errorCode };
    const answer = await payer.waitFor((r) => r.method === 'PUT' && r.path.startsWith(`/transfers/${transfer.transferId}`), 20_000, 'transfer answer');
    return { transferId: transfer.transferId, state: answer.body.transferState, errorCode: answer.body.errorInformation?.errorCode };
  }
}
