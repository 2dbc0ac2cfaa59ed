/**
 * What the DFSP connector asks of the bank's core systems for the FSPIOP payer and payee roles, shaped as the
 * sdk-scheme-adapter's backend API (GET /parties/{Type}/{ID}, POST /quoterequests, POST /transfers) so an existing
 * core-banking adapter fits. The built-in simulator implements it; BACKEND_ENDPOINT points at a real one.
 */
export interface CoreBanking {
  /** The party the bank holds under an identifier; undefined when there is none (3204). */
  party(idType: string, idValue: string, idSubValue?: string): Promise<Record<string, unknown> | undefined>;
}
