import type { SettlementTerms } from '../ledger/ledger';
import { positionModelFor, settledAtCommit } from './models';
import { openWindowIdIn } from './openWindow';

/** Settlement's terms for the payments the ledger commits: the window open now, and the model that settles each currency. */
export const ledgerTerms: SettlementTerms = {
  openWindowIdIn,
  paymentModelOf(models, currency) {
    const model = positionModelFor(models, currency);
    return model && { model, gross: settledAtCommit(model) };
  },
};
