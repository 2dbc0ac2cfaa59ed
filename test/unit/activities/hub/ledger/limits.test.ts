import test from 'ava';
import { reportedValue } from '../../../../../activities/hub/ledger/limits';

// Positions as central-ledger reports them (Document 3: "transfers accepted for processing but not yet cleared where
// the DFSP is debtor"): a reservation moves the value at once, so the value reported is posted plus reserved.

test("an account's reported value is its posted balance plus what is reserved, exactly and in canonical form", (t) => {
  t.is(reportedValue({ value: '100.0000', reservedValue: '25.5000' }), '125.5');
  t.is(reportedValue({ value: '-1000.0000', reservedValue: '250.0000' }), '-750', 'a deposit with a withdrawal in progress');
  t.is(reportedValue({ value: '-25.5000', reservedValue: '25.5000' }), '0', 'never -0');
  t.is(reportedValue({ value: '999999999999999999.9999', reservedValue: '0.0001' }), '1000000000000000000', 'no digit lost, no exponent');
});
