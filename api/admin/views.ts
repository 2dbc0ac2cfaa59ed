import type { ParticipantAccount, SettlementModel } from '../../activities/hub/db/entities';
import { reportedValue, type LimitView, type PositionView } from '../../activities/hub/ledger/limits';
import type { ParticipantWithAccounts } from '../../activities/hub/participants/participants';

/**
 * Response bodies in the shape of the Mojaloop central-ledger admin API. Amounts are numbers there;
 * they are rendered from the ledger's exact decimal strings only at this edge.
 */
const amount = (value: string) => Number(value);
const flag = (value: boolean) => (value ? 1 : 0);

export function participantView({ participant, accounts }: ParticipantWithAccounts, baseUrl: string) {
  const self = `${baseUrl}/participants/${encodeURIComponent(participant.name)}`;
  return {
    name: participant.name,
    id: self,
    created: participant.createdDate,
    isActive: flag(participant.isActive),
    links: { self },
    accounts: accounts.map((account) => ({
      id: account.id,
      ledgerAccountType: account.ledgerAccountType,
      currency: account.currency,
      isActive: flag(account.isActive),
      createdDate: account.createdDate,
      createdBy: account.createdBy,
    })),
  };
}

/**
 * An account as central-ledger reports it: value includes reservations, the same figure GET …/positions gives,
 * and reservedValue is 0, as central-ledger's is at rest (it holds amounts only in the middle of a position
 * batch), so value + reservedValue never counts a reservation twice. A participant's POSITION and SETTLEMENT accounts
 * also name the settlement model that settles them (an addition of this hub's), null where no active model applies:
 * that currency is not settled, and its positions change only by payments and funds in and out.
 */
export function accountView(account: ParticipantAccount, model: SettlementModel | undefined) {
  const view = {
    id: account.id,
    ledgerAccountType: account.ledgerAccountType,
    currency: account.currency,
    isActive: flag(account.isActive),
    value: amount(reportedValue(account)),
    reservedValue: 0,
    changedDate: account.changedDate,
  };
  return SETTLED_ACCOUNT_TYPES.includes(account.ledgerAccountType) ? { ...view, settlementModel: model?.name ?? null } : view;
}

const SETTLED_ACCOUNT_TYPES = ['POSITION', 'SETTLEMENT'];

export function limitView(view: LimitView, withName: boolean) {
  const limit = { type: view.limit.type, value: amount(view.limit.value), alarmPercentage: amount(view.limit.alarmPercentage) };
  return withName ? { name: view.name, currency: view.currency, limit } : { currency: view.currency, limit };
}

export function positionView(position: PositionView) {
  return { currency: position.currency, value: amount(position.value), changedDate: position.changedDate };
}

export function settlementModelView(model: SettlementModel) {
  return {
    settlementModelId: model.settlementModelId,
    name: model.name,
    isActive: model.isActive,
    settlementGranularity: model.settlementGranularity,
    settlementInterchange: model.settlementInterchange,
    settlementDelay: model.settlementDelay,
    currency: model.currency,
    requireLiquidityCheck: model.requireLiquidityCheck,
    ledgerAccountType: model.ledgerAccountType,
    settlementAccountType: model.settlementAccountType,
    autoPositionReset: model.autoPositionReset,
  };
}
