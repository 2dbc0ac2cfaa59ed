import type { DfspBackends } from '../dependencies';
import { SimulatedCoreBanking } from './coreBankingSimulator';
import { SimulatedBank } from './simulatedBank';
import { SimulatedThirdpartyBackend } from './thirdpartySimulator';

/** The built-in simulator of a bank's systems behind both backend interfaces, over one set of customers and balances. */
export function simulatedBackends(bank: SimulatedBank): DfspBackends & { thirdparty: SimulatedThirdpartyBackend; coreBanking: SimulatedCoreBanking } {
  return { coreBanking: new SimulatedCoreBanking(bank), thirdparty: new SimulatedThirdpartyBackend(bank) };
}
