import Decimal from 'decimal.js';
import type { AuthChannel } from './thirdpartyBackend';

/** An account at the simulated bank. Balances are decimal strings, as everywhere money is handled here. */
export interface SimulatedAccount {
  /** The account's identifier, as a consent's scopes and THIRD_PARTY_LINK entries name it. */
  accountId: string;
  nickname: string;
  currency: string;
  balance: string;
}

/** A customer of the simulated bank: a user who can link accounts, and a party others can pay. */
export interface SimulatedCustomer {
  /** The identifier the user gives a PISP (GET /accounts/{ID}, a consent request's userId). */
  userId: string;
  /** The MSISDN others pay the customer by (GET /parties/MSISDN/{ID}). */
  msisdn: string;
  firstName: string;
  lastName: string;
  dateOfBirth: string;
  /** The channels the bank can authenticate the customer on for a linking, the bank's preferred first. */
  authChannels: AuthChannel[];
  accounts: SimulatedAccount[];
}

/**
 * Two customers per bank, each with one account, enough for the demo's and the tests' stories. Their MSISDNs are
 * `msisdnPrefix` and 1 or 2: banks of one scheme need prefixes of their own (SIMULATOR_MSISDN_PREFIX). Alice has no
 * web banking, so she links by OTP; Bob logs in on the bank's web page, or takes an OTP when a PISP cannot send him
 * there.
 */
export function sampleCustomers(fspId: string, currency = 'USD', msisdnPrefix = '2771380391'): SimulatedCustomer[] {
  return [
    {
      userId: `alice@${fspId}`,
      msisdn: `${msisdnPrefix}1`,
      firstName: 'Alice',
      lastName: 'Alpaca',
      dateOfBirth: '1970-01-01',
      authChannels: ['OTP'],
      accounts: [{ accountId: `${fspId}.alice.1`, nickname: 'Alice everyday', currency, balance: '1000' }],
    },
    {
      userId: `bob@${fspId}`,
      msisdn: `${msisdnPrefix}2`,
      firstName: 'Bob',
      lastName: 'Bonobo',
      dateOfBirth: '1980-02-02',
      authChannels: ['WEB', 'OTP'],
      accounts: [{ accountId: `${fspId}.bob.1`, nickname: 'Bob savings', currency, balance: '500' }],
    },
  ];
}

/**
 * The built-in stand-in for a bank's own systems, which the demo and the tests run against: customers, their
 * accounts and balances, in memory. The connector reaches it only through the backend interfaces
 * (CoreBanking, ThirdpartyBackend), as it would reach a real core-banking adapter.
 */
export class SimulatedBank {
  constructor(
    readonly fspId: string,
    readonly customers: SimulatedCustomer[] = sampleCustomers(fspId),
  ) {}

  customerByUserId(userId: string): SimulatedCustomer | undefined {
    return this.customers.find((customer) => customer.userId === userId);
  }

  customerByMsisdn(msisdn: string): SimulatedCustomer | undefined {
    return this.customers.find((customer) => customer.msisdn === msisdn);
  }

  account(accountId: string): { customer: SimulatedCustomer; account: SimulatedAccount } | undefined {
    for (const customer of this.customers) {
      const account = customer.accounts.find((candidate) => candidate.accountId === accountId);
      if (account) return { customer, account };
    }
    return undefined;
  }

  /** Adds `amount` (negative to take it) to an account's balance; false when the account is unknown or would go below zero. */
  move(accountId: string, amount: string): boolean {
    const found = this.account(accountId);
    if (!found) return false;
    const balance = new Decimal(found.account.balance).plus(amount);
    if (balance.isNegative()) return false;
    found.account.balance = balance.toString();
    return true;
  }
}
