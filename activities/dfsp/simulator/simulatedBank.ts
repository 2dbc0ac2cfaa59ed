import { Decimal } from '../../shared/contracts/money';
import type { AuthChannel } from '../backend/thirdpartyBackend';

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
      userId: `alice.${fspId}`,
      msisdn: `${msisdnPrefix}1`,
      firstName: 'Alice',
      lastName: 'Alpaca',
      dateOfBirth: '1970-01-01',
      authChannels: ['OTP'],
      accounts: [{ accountId: `${fspId}.alice.1`, nickname: 'Alice everyday', currency, balance: '1000' }],
    },
    {
      userId: `bob.${fspId}`,
      msisdn: `${msisdnPrefix}2`,
      firstName: 'Bob',
      lastName: 'Bonobo',
      dateOfBirth: '1980-02-02',
      authChannels: ['WEB', 'OTP'],
      accounts: [{ accountId: `${fspId}.bob.1`, nickname: 'Bob savings', currency, balance: '500' }],
    },
  ];
}

/** Money held on an account for a payment not yet decided: a pending debit, committed or released, never edited. */
interface Hold {
  accountId: string;
  amount: string;
}

/**
 * The built-in stand-in for a bank's own systems, which the demo and the tests run against: customers, their
 * accounts and balances, in memory. The connector reaches it only through the backend interfaces
 * (CoreBanking, ThirdpartyBackend), as it would reach a real core-banking adapter.
 *
 * Invariant: an account's balance never falls below what it holds for pending payments (so never below zero).
 */
export class SimulatedBank {
  private readonly holds = new Map<string, Hold>();
  /** How each hold that ended did: the same step again changes nothing. */
  private readonly ended = new Map<string, 'committed' | 'released'>();

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

  /** What an account may still spend: its balance less what it holds. */
  available(accountId: string): string | undefined {
    const found = this.account(accountId);
    return found && this.availableOf(found.account).toString();
  }

  /** Adds `amount` (negative to take it) to an account's balance; false when the account is unknown or would go below what it holds. */
  move(accountId: string, amount: string): boolean {
    const found = this.account(accountId);
    if (!found || this.availableOf(found.account).plus(amount).isNegative()) return false;
    found.account.balance = new Decimal(found.account.balance).plus(amount).toString();
    return true;
  }

  /**
   * Holds `amount` of an account under `holdId`; false when the account is unknown or cannot spend it. A hold that
   * exists already is kept as it is (true); one that has ended is not made again (false).
   */
  hold(holdId: string, accountId: string, amount: string): boolean {
    if (this.holds.has(holdId)) return true;
    const found = this.account(accountId);
    if (this.ended.has(holdId) || !found || this.availableOf(found.account).lessThan(amount)) return false;
    this.holds.set(holdId, { accountId, amount });
    return true;
  }

  /** Takes `amount` (at most what is held) from the account and ends the hold; true again once done, false for no such hold. */
  commitHold(holdId: string, amount: string): boolean {
    const hold = this.holds.get(holdId);
    if (!hold) return this.ended.get(holdId) === 'committed';
    if (new Decimal(amount).greaterThan(hold.amount)) return false;
    const { account } = this.account(hold.accountId)!;
    account.balance = new Decimal(account.balance).minus(amount).toString();
    this.endHold(holdId, 'committed');
    return true;
  }

  /** Ends a hold without taking anything; nothing for no such hold. */
  releaseHold(holdId: string): void {
    if (this.holds.has(holdId)) this.endHold(holdId, 'released');
  }

  private endHold(holdId: string, how: 'committed' | 'released'): void {
    this.holds.delete(holdId);
    this.ended.set(holdId, how);
  }

  private availableOf(account: SimulatedAccount): Decimal {
    let held = new Decimal(0);
    for (const hold of this.holds.values()) if (hold.accountId === account.accountId) held = held.plus(hold.amount);
    return new Decimal(account.balance).minus(held);
  }
}
