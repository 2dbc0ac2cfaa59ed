import type { SimulatedDfsp } from './dfsp';
import { ilpPair, transferBody } from './fspiopBodies';
import type { Sender } from './switchHarness';

/**
 * Payments between simulated DFSPs that fulfil every transfer they are sent, through a switch: what the settlement tests
 * need to fill a window. Each payment's fulfilment is kept here for its payee to answer with.
 */
export class FulfillingPayees {
  private readonly fulfilments = new Map<string, string>();

  constructor(private readonly hub: Sender) {}

  /** From now on `payee` answers each POST /transfers with the fulfilment of its condition, COMMITTED. */
  fulfils(payee: SimulatedDfsp): SimulatedDfsp {
    payee.react(async (request) => {
      if (request.method !== 'POST' || request.path !== '/transfers') return;
      await this.hub.fspiop('PUT', `/transfers/${request.body.transferId}`, {
        source: payee.name,
        destination: request.body.payerFsp,
        body: { fulfilment: this.fulfilments.get(request.body.transferId), completedTimestamp: new Date().toISOString(), transferState: 'COMMITTED' },
      });
    });
    return payee;
  }

  /** `payer` pays `payee`; resolves with the transfer's ID and the switch's answer to the payer: its state, or its error code. */
  async pay(payer: SimulatedDfsp, payee: SimulatedDfsp, amount: string, currency: string): Promise<{ transferId: string; state?: string; errorCode?: string }> {
    const { fulfilment, condition } = ilpPair();
    const body = transferBody(payer.name, payee.name, amount, { condition, currency: currency as 'USD' });
    this.fulfilments.set(body.transferId, fulfilment);
    const ack = await this.hub.fspiop('POST', '/transfers', { source: payer.name, destination: payee.name, body });
    if (ack.status !== 202) throw new Error(`POST /transfers answered ${ack.status}: ${JSON.stringify(ack.body)}`);
    const answer = await payer.waitFor((r) => r.method === 'PUT' && r.path.startsWith(`/transfers/${body.transferId}`), 20_000, 'transfer answer');
    return { transferId: body.transferId, state: answer.body.transferState, errorCode: answer.body.errorInformation?.errorCode };
  }
}
