import type { DfspBackends } from '../dependencies';
import { SimulatedCoreBanking } from './coreBankingSimulator';
import { SimulatedBank } from './simulatedBank';
import { SimulatedThirdpartyBackend } from './thirdpartySimulator';

/**
 * The built-in simulator of a bank's systems behind both backend interfaces, over one set of customers and balances;
 * `loginPage` is the bank's login page that WEB linking sends users to (the connector serves one, simulatorPages.ts).
 */
export function simulatedBackends(
  bank: SimulatedBank,
  loginPage?: string,
): DfspBackends & { thirdparty: SimulatedThirdpartyBackend; coreBanking: SimulatedCoreBanking } {
  return { coreBanking: new SimulatedCoreBanking(bank), thirdparty: new SimulatedThirdpartyBackend(bank, loginPage) };
}
