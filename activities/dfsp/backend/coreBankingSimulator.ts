import type { CoreBanking } from './coreBanking';
import type { SimulatedBank } from './simulatedBank';

/** The simulated bank's core systems: its customers as parties others can pay. */
export class SimulatedCoreBanking implements CoreBanking {
  constructor(private readonly bank: SimulatedBank) {}

  async party(idType: string, idValue: string): Promise<Record<string, unknown> | undefined> {
    const customer = idType === 'MSISDN' ? this.bank.customerByMsisdn(idValue) : undefined;
    if (!customer) return undefined;
    return {
      idType,
      idValue,
      displayName: `${customer.firstName} ${customer.lastName}`,
      firstName: customer.firstName,
      lastName: customer.lastName,
      dateOfBirth: customer.dateOfBirth,
    };
  }
}
