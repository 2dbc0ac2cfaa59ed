import { ParticipantLimit } from '../db/entities';
import { Decimal, formatAmount } from '../db/money';
import { HubError } from '../../platform/hubError';
import type { ReserveGuard } from './ledger';
import { NET_DEBIT_CAP } from './limits';

/**
 * central-ledger's position check of a payer's reservation: its position with the amount (posted plus reserved)
 * must stay within its liquidity cover (4001) and its Net Debit Cap (4200). The payer's SETTLEMENT account in the
 * currency must be locked with the movement (`extraLocks`): the cover read is then the one no withdrawal can spend
 * meanwhile. Each movement of a batch is checked against the position the earlier ones left. Make one guard per
 * ledger step: it reads each payer's cap once, so a bulk's 1,000 items do not read it 1,000 times.
 */
export function netDebitCap(): ReserveGuard {
  const caps = new Map<number, ParticipantLimit | null>();
  return async ({ manager, debit, amount, accounts }) => {
    const settlement = [...accounts.values()].find(
      (account) => account.participantId === debit.participantId && account.currency === debit.currency && account.ledgerAccountType === 'SETTLEMENT',
    );
    if (!settlement) throw new Error(`the SETTLEMENT account beside position account ${debit.id} must be locked with it`);
    if (!caps.has(debit.id)) caps.set(debit.id, await manager.findOneBy(ParticipantLimit, { accountId: debit.id, type: NET_DEBIT_CAP }));
    const limit = caps.get(debit.id);
    const exposure = new Decimal(debit.value).plus(debit.reservedValue).plus(amount);
    // Liquidity cover: what the payer has deposited (a negative settlement balance) less its withdrawals in progress.
    const liquidity = new Decimal(settlement.value).plus(settlement.reservedValue).negated();
    if (exposure.greaterThan(liquidity)) {
      throw new HubError('payerInsufficientLiquidity', `position ${formatAmount(exposure)} would exceed liquidity cover ${formatAmount(liquidity)}`);
    }
    if (!limit || exposure.greaterThan(limit.value)) {
      throw new HubError('payerLimitError', `position ${formatAmount(exposure)} would exceed the Net Debit Cap ${limit ? limit.value : '(none set)'}`);
    }
  };
}
