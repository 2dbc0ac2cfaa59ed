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
  return model && isDeferredNet(model) ? model : undefined;
}

/** The gross model a currency's payments are settled by as each commits, if that is how they are settled. */
export function grossModelFor(models: SettlementModel[], currency: string): SettlementModel | undefined {
  const model = positionModelFor(models, currency);
  return settledAtCommit(model) ? model : undefined;
}

/** Whether a payment committed under `model` was settled in the commit's own step: a gross model settles it there. */
export function settledAtCommit(model: Pick<SettlementModel, 'settlementGranularity'> | undefined): boolean {
  return model?.settlementGranularity === 'GROSS';
}

function isDeferredNet(model: SettlementModel): boolean {
  return model.settlementGranularity === 'NET' && model.settlementDelay === 'DEFERRED';
}

/**
 * Of the models a window's payments committed under (each payment's settlementModelId, null where no model settled
 * its currency then), those whose payments are still to settle: every one but a gross model, which settled its
 * payments as they committed. `models` are all models, active or not.
 */
export function unsettledUnder(models: SettlementModel[], committedUnder: Array<number | null>): Array<number | null> {
  const byId = new Map(models.map((model) => [model.settlementModelId, model]));
  return [...new Set(committedUnder)].filter((id) => id === null || !settledAtCommit(byId.get(id)));
}

/**
 * The deferred net model that settles a window's payments in a currency, given the models they committed under
 * (unsettledUnder), or undefined when none is left to settle or no net model settles them. They fall to the
 * currency's net model now; where it has none now (it moved to gross, or to no model, after they committed), to the
 * latest net model they committed under, so what a net model left to the window is still settled once, by a net
 * settlement. `models` are all models, active or not.
 */
export function windowModelFor(models: SettlementModel[], currency: string, committedUnder: Array<number | null>): SettlementModel | undefined {
  const unsettled = unsettledUnder(models, committedUnder);
  if (unsettled.length === 0) return undefined;
  const underNet = models.filter((model) => unsettled.includes(model.settlementModelId) && isDeferredNet(model));
  return netModelFor(models, currency) ?? underNet.sort((a, b) => b.settlementModelId - a.settlementModelId)[0];
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
