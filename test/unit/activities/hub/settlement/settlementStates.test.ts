import test from 'ava';
import type { SettlementState } from '../../../../../activities/hub/db/settlementEntities';
import { abortProblem, accountChange, settlementStateAfter } from '../../../../../activities/hub/settlement/settlementStates';

// central-settlement's state machine: one step at a time, every account together.

const STEPS: SettlementState[] = ['PENDING_SETTLEMENT', 'PS_TRANSFERS_RECORDED', 'PS_TRANSFERS_RESERVED', 'PS_TRANSFERS_COMMITTED', 'SETTLED'];

test('an account takes the step after the settlement’s state, and no other', (t) => {
  for (const [index, settlement] of STEPS.slice(0, -1).entries()) {
    const next = STEPS[index + 1];
    t.is(accountChange(settlement, settlement, next), 'transition', `${settlement} → ${next}`);
    for (const other of STEPS.filter((state) => state !== next && state !== settlement)) {
      t.is(accountChange(settlement, settlement, other), 'refused', `${settlement}: not ${other}`);
    }
  }
});

test('an account asked for the state it is in is restated, not moved; one ahead of the others waits for them', (t) => {
  t.is(accountChange('PENDING_SETTLEMENT', 'PS_TRANSFERS_RECORDED', 'PS_TRANSFERS_RECORDED'), 'restate');
  t.is(accountChange('PENDING_SETTLEMENT', 'PS_TRANSFERS_RECORDED', 'PS_TRANSFERS_RESERVED'), 'refused');
});

test('a settled or aborted settlement moves no account', (t) => {
  for (const settlement of ['SETTLED', 'ABORTED'] as const) {
    for (const requested of STEPS) t.not(accountChange(settlement, 'PS_TRANSFERS_COMMITTED', requested), 'transition');
  }
});

test('the settlement moves on once no account is left behind, one step per change', (t) => {
  t.is(settlementStateAfter('PENDING_SETTLEMENT', ['PS_TRANSFERS_RECORDED', 'PENDING_SETTLEMENT']), 'PENDING_SETTLEMENT');
  t.is(settlementStateAfter('PENDING_SETTLEMENT', ['PS_TRANSFERS_RECORDED', 'PS_TRANSFERS_RECORDED']), 'PS_TRANSFERS_RECORDED');
  t.is(settlementStateAfter('PS_TRANSFERS_RECORDED', ['PS_TRANSFERS_RESERVED']), 'PS_TRANSFERS_RESERVED');
  t.is(settlementStateAfter('PS_TRANSFERS_RESERVED', ['PS_TRANSFERS_COMMITTED', 'PS_TRANSFERS_RESERVED']), 'PS_TRANSFERS_RESERVED');
  t.is(settlementStateAfter('PS_TRANSFERS_RESERVED', ['PS_TRANSFERS_COMMITTED']), 'PS_TRANSFERS_COMMITTED');
  t.is(settlementStateAfter('PS_TRANSFERS_COMMITTED', ['SETTLED', 'PS_TRANSFERS_COMMITTED']), 'SETTLING');
  t.is(settlementStateAfter('SETTLING', ['SETTLED', 'PS_TRANSFERS_COMMITTED']), 'SETTLING');
  t.is(settlementStateAfter('SETTLING', ['SETTLED', 'SETTLED']), 'SETTLED');
  t.is(settlementStateAfter('PS_TRANSFERS_COMMITTED', ['SETTLED']), 'SETTLED');
});

test('a settlement may be aborted until a transfer of it is committed', (t) => {
  for (const state of ['PENDING_SETTLEMENT', 'PS_TRANSFERS_RECORDED', 'PS_TRANSFERS_RESERVED', 'ABORTED'] as const) {
    t.is(abortProblem(1, state, ['PS_TRANSFERS_RESERVED']), undefined, state);
  }
  t.regex(abortProblem(1, 'PS_TRANSFERS_RESERVED', ['PS_TRANSFERS_COMMITTED', 'PS_TRANSFERS_RESERVED']) ?? '', /committed/);
  for (const state of ['PS_TRANSFERS_COMMITTED', 'SETTLING', 'SETTLED'] as const) t.truthy(abortProblem(1, state, []), state);
});
