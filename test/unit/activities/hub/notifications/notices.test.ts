import test from 'ava';
import { limitAdjustmentNotice, positionChangeNotice, thresholdBreachNotice } from '../../../../../activities/hub/notifications/notices';

test("a breach notice carries central-event-processor's subject and the share of the cap left, to two places", (t) => {
  const notice = thresholdBreachNotice('payerfsp', 'USD', '95', '100');
  t.is(notice.type, 'NET_DEBIT_CAP_THRESHOLD_BREACH_EMAIL');
  t.is(notice.subject, 'NET_DEBIT_CAP BREACH CONDITION REACHED');
  t.regex(notice.toParticipant, /^Dear payerfsp,/);
  t.regex(notice.toParticipant, /5\.00% of the limit is left/);
  t.regex(notice.toParticipant, /Your current position is 95 USD\./);
  t.regex(notice.toHub, /^payerfsp has passed the alarm threshold/);
  t.regex(thresholdBreachNotice('p', 'USD', '901.5', '1000').toParticipant, /9\.85% of the limit is left/);
  t.regex(thresholdBreachNotice('p', 'USD', '0', '0').toParticipant, /0\.00% of the limit is left/, 'a cap of zero leaves nothing, and divides by nothing');
});

test('an adjustment notice gives the new limit and its currency; a settlement notice the position it left', (t) => {
  const adjusted = limitAdjustmentNotice('payerfsp', 'EUR', '2500.50');
  t.is(adjusted.subject, 'NET_DEBIT_CAP LIMIT ADJUSTMENT');
  t.regex(adjusted.toParticipant, /Your NET_DEBIT_CAP limit is now 2500\.5 EUR\./);
  t.regex(adjusted.toHub, /The NET_DEBIT_CAP limit of payerfsp is now 2500\.5 EUR\./);
  const moved = positionChangeNotice('payeefsp', 'EUR', '-12.25');
  t.is(moved.type, 'SETTLEMENT_TRANSFER_POSITION_CHANGE_EMAIL');
  t.is(moved.subject, 'Settlement Position Change');
  t.regex(moved.toParticipant, /Your current position is -12\.25 EUR\./);
});
