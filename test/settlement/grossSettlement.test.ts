import test from 'ava';
import { checkLedger } from '../../activities/hub/ledger/invariants';
import { immediateGrossModelBody } from '../helpers/adminBodies';
import type { SimulatedDfsp } from '../helpers/dfsp';
import { bulkItem, bulkTransferBody, ilpPair, transferBody } from '../helpers/fspiopBodies';
import { HUB_ID, useSwitch, SwitchHarness } from '../helpers/switchHarness';

// Immediate gross settlement: where a currency's model is IMMEDIATE GROSS, each payment is settled in the ledger step
// that commits it. Its amount moves from the payer's settlement account to the payee's, and (autoPositionReset) out
// of both positions again, so liquidity, not the Net Debit Cap, bounds what a payer can send. NAD is paid by no other
// test, so the model acts on this file's participants alone when the test files share a database.

let hub: SwitchHarness;
const CURRENCY = 'NAD';

useSwitch(test, async (started) => {
  hub = started;
  const created = await hub.admin.call('POST', '/settlementModels', immediateGrossModelBody('IMMEDIATEGROSSNAD', CURRENCY));
  if (created.status !== 201 && !/already exists/.test(JSON.stringify(created.body))) throw new Error(JSON.stringify(created.body));
});

/** A DFSP with 1000 deposited and a Net Debit Cap of 600, which fulfils every transfer and bulk it is sent. */
async function dfsp(): Promise<SimulatedDfsp> {
  const provisioned = await hub.provision({ currency: CURRENCY, netDebitCap: 600, fundsIn: 1_000 });
  provisioned.react(async (request) => {
    if (request.method === 'POST' && request.path === '/transfers') {
      await hub.fspiop('PUT', `/transfers/${request.body.transferId}`, {
        source: provisioned.name,
        destination: request.body.payerFsp,
        body: { fulfilment: fulfilments.get(request.body.transferId), completedTimestamp: new Date().toISOString(), transferState: 'COMMITTED' },
      });
    }
    if (request.method === 'POST' && request.path === '/bulkTransfers') {
      const individualTransferResults = request.body.individualTransfers.map(({ transferId }: { transferId: string }) => ({
        transferId,
        fulfilment: fulfilments.get(transferId),
      }));
      await hub.fspiop('PUT', `/bulkTransfers/${request.body.bulkTransferId}`, {
        source: provisioned.name,
        destination: HUB_ID,
        body: { bulkTransferState: 'COMPLETED', completedTimestamp: new Date().toISOString(), individualTransferResults },
      });
    }
  });
  return provisioned;
}

const fulfilments = new Map<string, string>();

async function pay(payer: SimulatedDfsp, payee: SimulatedDfsp, amount: string): Promise<{ state?: string; errorCode?: string }> {
  const { fulfilment, condition } = ilpPair();
  const body = transferBody(payer.name, payee.name, amount, { condition, currency: CURRENCY as 'USD' });
  fulfilments.set(body.transferId, fulfilment);
  await hub.fspiop('POST', '/transfers', { source: payer.name, destination: payee.name, body });
  const answer = await payer.waitFor((r) => r.method === 'PUT' && r.path.startsWith(`/transfers/${body.transferId}`), 20_000, 'transfer answer');
  return { state: answer.body.transferState, errorCode: answer.body.errorInformation?.errorCode };
}

/** A DFSP's POSITION and SETTLEMENT balances as the admin API reports them. */
async function balances(dfsp: SimulatedDfsp): Promise<{ position: number; settlement: number }> {
  const accounts = (await hub.admin.call('GET', `/participants/${dfsp.name}/accounts`)).body.filter((account: any) => account.currency === CURRENCY);
  const valueOf = (type: string) => accounts.find((account: any) => account.ledgerAccountType === type).value;
  return { position: valueOf('POSITION'), settlement: valueOf('SETTLEMENT') };
}

test('a payment commits and settles in one step: funds move between the settlement accounts and both positions stay at zero', async (t) => {
  const [payer, payee] = [await dfsp(), await dfsp()];
  t.is((await pay(payer, payee, '400')).state, 'COMMITTED');
  t.deepEqual(await balances(payer), { position: 0, settlement: -600 }, "the payer's deposit of 1000 (a value of -1000) is 400 less");
  t.deepEqual(await balances(payee), { position: 0, settlement: -1400 });
  t.is((await pay(payer, payee, '400')).state, 'COMMITTED', 'the position was reset: a Net Debit Cap of 600 does not bind across payments');
  t.is((await pay(payer, payee, '200.0001')).errorCode, '4001', 'what is left of the deposit does');
  t.is((await pay(payer, payee, '200')).state, 'COMMITTED');
  t.deepEqual(await balances(payer), { position: 0, settlement: 0 });
  t.deepEqual((await checkLedger(hub.services.db)).violations, []);
});

test("a bulk's items are each settled as the bulk commits them", async (t) => {
  const [payer, payee] = [await dfsp(), await dfsp()];
  const items = [bulkItem('100', CURRENCY as 'USD'), bulkItem('50.5', CURRENCY as 'USD')];
  for (const item of items) fulfilments.set(item.transfer.transferId, item.fulfilment);
  const body = bulkTransferBody(payer.name, payee.name, items);
  t.is((await hub.fspiop('POST', '/bulkTransfers', { source: payer.name, destination: payee.name, body })).status, 202);
  const results = await payer.waitFor((r) => r.method === 'PUT' && r.path === `/bulkTransfers/${body.bulkTransferId}`, 30_000, 'bulk results');
  t.is(results.body.bulkTransferState, 'COMPLETED');
  t.deepEqual(await balances(payer), { position: 0, settlement: -849.5 });
  t.deepEqual(await balances(payee), { position: 0, settlement: -1150.5 });
  t.deepEqual((await checkLedger(hub.services.db)).violations, []);
});

test("a participant's accounts name the model that settles them; in a currency no active model settles they say null", async (t) => {
  const settled = await hub.provision({ currency: CURRENCY });
  const accounts = (await hub.admin.call('GET', `/participants/${settled.name}/accounts`)).body;
  const named = (type: string) => accounts.find((account: any) => account.ledgerAccountType === type && account.currency === CURRENCY).settlementModel;
  t.is(named('POSITION'), 'IMMEDIATEGROSSNAD');
  t.is(named('SETTLEMENT'), 'IMMEDIATEGROSSNAD');

  // No test creates a model for SZL, nor a default model for every currency.
  const unsettled = await hub.provision({ currency: 'SZL' });
  const unsettledAccounts = (await hub.admin.call('GET', `/participants/${unsettled.name}/accounts`)).body;
  t.deepEqual(
    unsettledAccounts.map((account: any) => [account.ledgerAccountType, account.settlementModel]),
    [
      ['POSITION', null],
      ['SETTLEMENT', null],
    ],
  );
});
