import type { SettlementModel } from '../db/entities';

/**
 * The model that settles a currency's positions, as central-settlement chooses it: the active model for that currency,
 * else the default (a model without a currency) for every currency no model names.
 */
export function positionModelFor(models: SettlementModel[], currency: string): SettlementModel | undefined {
  const active = models.filter((model) => model.isActive && model.ledgerAccountType === 'POSITION');
  return active.find((model) => model.currency === currency) ?? active.find((model) => model.currency === null);
}

/** The deferred net model a currency's positions are settled by in windows, if that is how they are settled. */
export function netModelFor(models: SettlementModel[], currency: string): SettlementModel | undefined {
  const model = positionModelFor(models, currency);
  return model?.settlementGranularity === 'NET' && model.settlementDelay === 'DEFERRED' ? model : undefined;
}

/** The gross model a currency's payments are settled by as each commits, if that is how they are settled. */
export function grossModelFor(models: SettlementModel[], currency: string): SettlementModel | undefined {
  const model = positionModelFor(models, currency);
  return model?.settlementGranularity === 'GROSS' ? model : undefined;
}

/**
 * The model that settles an account: its currency's position model, for the POSITION account and for the settlement
 * account that model moves; undefined for either when no active model applies (the currency is not settled: positions
 * change only by payments and funds in and out), and for accounts no model settles.
 */
export function accountModelFor(models: SettlementModel[], account: { ledgerAccountType: string; currency: string }): SettlementModel | undefined {
  const model = positionModelFor(models, account.currency);
  if (account.ledgerAccountType === 'POSITION') return model;
  if (account.ledgerAccountType === model?.settlementAccountType) return model;
  return undefined;
}
