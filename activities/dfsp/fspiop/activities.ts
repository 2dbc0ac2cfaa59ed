import type { DfspDependencies } from '../dependencies';

/** The DFSP's FSPIOP payer and payee activities (Document 2): calls to its CoreBanking backend. */
// eslint-disable-next-line @typescript-eslint/no-unused-vars
export function createFspiopActivities(deps: DfspDependencies) {
  return {};
}
