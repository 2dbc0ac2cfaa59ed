import { ParticipantAccount } from '../db/entities';
import { Decimal, formatAmount } from '../db/money';
import type { ReserveGuard } from './ledger';
import { HubError } from '../../platform/hubError';

/**
 * The funds-out rule: a DFSP may withdraw at most what it deposited (its settlement balance, Mojaloop's sign
 * negative) less withdrawals already reserved and less what covers its position now. The position is re-read
 * under the reservation's lock, so a transfer reserved meanwhile cannot spend the same cover.
 */
export function withdrawalCover(position: Pick<ParticipantAccount, 'id'>): ReserveGuard {
  return async ({ debit: settlement, amount, manager }) => {
    const current = (await manager.findOneBy(ParticipantAccount, { id: position.id }))!;
    const exposure = Decimal.max(0, new Decimal(current.value).plus(current.reservedValue));
    const available = new Decimal(settlement.value).plus(settlement.reservedValue).negated().minus(exposure);
    if (amount.greaterThan(available)) {
      throw new HubError('payerInsufficientLiquidity', `Funds out of ${formatAmount(amount)} exceeds the available ${formatAmount(available)}`);
    }
  };
}
