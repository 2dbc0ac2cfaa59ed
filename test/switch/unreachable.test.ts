import test from 'ava';
import { ApplicationFailure } from '@temporalio/common';
import { CallbackSender, type Delivery } from '../../activities/hub/delivery/callbacks';
import { quoteBody, transactionRequestBody } from '../helpers/fspiopBodies';
import { HUB_ID, startSwitch, SwitchHarness } from '../helpers/switchHarness';

/**
 * A sender that cannot reach some participants: each delivery to one fails as a delivery fails once its retries are
 * spent (a DFSP down, refusing connections or answering 5xx for minutes), without the test waiting for those retries.
 */
class CannotReach extends CallbackSender {
  readonly unreachable = new Set<string>();

  override async send(delivery: Delivery): Promise<void> {
    if (this.unreachable.has(delivery.to)) throw ApplicationFailure.nonRetryable(`connect ECONNREFUSED (${delivery.to})`, 'DeliveryError');
    return super.send(delivery);
  }
}

let hub: SwitchHarness;
let sender: CannotReach;
test.before(async () => {
  hub = await startSwitch({
    adapt: (opened) => {
      sender = new CannotReach({ directory: opened.directory, log: opened.log, hubId: HUB_ID });
      return { ...opened, sender };
    },
  });
});
test.after.always(async () => {
  await hub?.close();
});

const isPut = (path: string) => (r: { method: string; path: string }) => r.method === 'PUT' && r.path === path;

test('a quote whose payee the switch cannot reach is answered 1001 Destination communication error, as Mojaloop reports it', async (t) => {
  const payer = await hub.provision();
  const payee = await hub.provision();
  sender.unreachable.add(payee.name);
  const body = quoteBody(payer.name, payee.name, '3');
  t.is((await hub.fspiop('POST', '/quotes', { source: payer.name, destination: payee.name, body })).status, 202);
  const error = await payer.waitFor(isPut(`/quotes/${body.quoteId}/error`));
  t.is(error.body.errorInformation.errorCode, '1001');
  t.regex(error.body.errorInformation.errorDescription, /^Destination communication error/);
  t.is(error.headers['fspiop-source'], HUB_ID);
});

test('a transaction request whose payer FSP the switch cannot reach is answered 1001 as well', async (t) => {
  const payee = await hub.provision();
  const payer = await hub.provision();
  sender.unreachable.add(payer.name);
  const body = transactionRequestBody(payee.name, payer.name, '3');
  t.is((await hub.fspiop('POST', '/transactionRequests', { source: payee.name, destination: payer.name, body })).status, 202);
  const error = await payee.waitFor(isPut(`/transactionRequests/${body.transactionRequestId}/error`));
  t.is(error.body.errorInformation.errorCode, '1001');
});
