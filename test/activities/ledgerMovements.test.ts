import crypto from 'node:crypto';
import test from 'ava';
import { In } from 'typeorm';
import { LedgerTransfer, ParticipantAccount } from '../../activities/hub/db/entities';
import { HubError } from '../../activities/platform/hubError';
import { AdminHarness, startAdmin } from '../helpers/adminHarness';
import { uniqueName } from '../helpers/database';

// The ledger moves money only the ways its table names (rules.ts's MOVEMENT_TYPES). CVE is paid by no other test.

const CURRENCY = 'CVE';

let admin: AdminHarness;
test.before(async () => {
  admin = await startAdmin();
});
test.after.always(async () => {
  await admin?.close();
});

interface Dfsp {
  name: string;
  position: number;
  settlement: number;
  opening: number;
}

async function participant(opening: number): Promise<Dfsp> {
  const { participants, limits, funds } = admin.services;
  const name = uniqueName();
  const { accounts } = await participants.create(name, CURRENCY);
  await participants.setActive(name, true);
  await limits.initialPositionAndLimits(name, { currency: CURRENCY, limit: { type: 'NET_DEBIT_CAP', value: '800' }, initialPosition: String(opening) });
  const accountOf = (type: string) => accounts.find((account) => account.ledgerAccountType === type)!.id;
  await funds.recordFundsIn(name, accountOf('SETTLEMENT'), { transferId: crypto.randomUUID(), externalReference: 'x', reason: 'opening', amount: '1000' });
  return { name, position: accountOf('POSITION'), settlement: accountOf('SETTLEMENT'), opening };
}

test('the ledger refuses a movement its table does not name, whoever asks it: 2001, and nothing moves', async (t) => {
  const [payer, payee] = [await participant(0), await participant(0)];
  const { ledger, db } = admin.services;
  const reconciliation = await db.read((manager) =>
    manager.findOneByOrFail(ParticipantAccount, { ledgerAccountType: 'HUB_RECONCILIATION', currency: CURRENCY }),
  );
  const movement = (kind: string, debitAccountId: number, creditAccountId: number, amount: string) => ({
    transferId: crypto.randomUUID(),
    kind,
    debitAccountId,
    creditAccountId,
    amount,
    currency: CURRENCY,
  });
  const unknown = [
    movement('TRANSFER', payer.position, payee.settlement, '5000'),
    movement('POSITION_RESET', payer.position, payee.position, '5000'),
    movement('FUNDS_IN', payer.settlement, reconciliation.id, '1'),
  ];
  for (const asked of unknown) {
    for (const step of [ledger.reserve(asked), ledger.post(asked)]) {
      const refused = await t.throwsAsync<HubError>(step, { instanceOf: HubError, message: new RegExp(`makes no ${asked.kind} movement`) });
      t.is(refused?.errorInformation.errorCode, '2001');
    }
  }
  const moved = await db.read((manager) => manager.countBy(LedgerTransfer, { transferId: In(unknown.map((asked) => asked.transferId)) }));
  t.is(moved, 0);
  const balances = await db.read((manager) =>
    manager.findBy(ParticipantAccount, { id: In([payer.position, payer.settlement, payee.position, payee.settlement]) }),
  );
  t.deepEqual(
    balances.map((account) => Number(account.value)).sort((a, b) => a - b),
    [-1000, -1000, 0, 0],
    'each deposited 1000, and no position moved',
  );
});
