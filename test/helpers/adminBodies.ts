/** A deferred net settlement model as an operator creates it (POST /settlementModels), the kind every net scheme runs. */
export function deferredNetModelBody(name: string, currency: string) {
  return {
    name,
    settlementGranularity: 'NET',
    settlementInterchange: 'MULTILATERAL',
    settlementDelay: 'DEFERRED',
    currency,
    requireLiquidityCheck: true,
    ledgerAccountType: 'POSITION',
    settlementAccountType: 'SETTLEMENT',
    autoPositionReset: true,
  };
}

/** An immediate gross settlement model as an operator creates it: each payment settled between settlement accounts as it commits. */
export function immediateGrossModelBody(name: string, currency: string) {
  return { ...deferredNetModelBody(name, currency), settlementGranularity: 'GROSS', settlementInterchange: 'BILATERAL', settlementDelay: 'IMMEDIATE' };
}
