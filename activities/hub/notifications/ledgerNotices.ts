import type { LedgerFollowers } from '../ledger/ledger';
import { limitAdjustmentNotice, thresholdBreachNotice } from './notices';
import { notifyIn } from './notifications';

/** The e-mails the ledger's decisions call for, queued in the ledger step's transaction; `hubName`'s operator is told too. */
export function ledgerNotices(hubName: string): LedgerFollowers {
  return {
    alarmCrossed: (manager, { participantId, currency, position, netDebitCap }) =>
      notifyIn(manager, hubName, participantId, (dfsp) => thresholdBreachNotice(dfsp, currency, position, netDebitCap)),
    limitAdjusted: (manager, { participantId, currency, netDebitCap }) =>
      notifyIn(manager, hubName, participantId, (dfsp) => limitAdjustmentNotice(dfsp, currency, netDebitCap)),
  };
}
