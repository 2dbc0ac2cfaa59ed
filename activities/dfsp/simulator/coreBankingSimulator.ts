import type {
  BackendParty,
  BackendQuoteRequest,
  BackendQuoteResponse,
  BackendTransferNotification,
  BackendTransferRequest,
  BackendTransferResponse,
  CoreBanking,
} from '../backend/coreBanking';
import { CoreBankingRefusal } from '../backend/coreBanking';
import type { SimulatedAccount, SimulatedBank, SimulatedCustomer } from './simulatedBank';

/** A transfer the simulated bank credited: to which account, and what it answered. */
interface Credit {
  accountId: string;
  amount: string;
  response: BackendTransferResponse;
  reversed: boolean;
}

/**
 * The simulated bank's core systems, as a core-banking adapter behind the sdk-scheme-adapter would answer: its
 * customers are parties others pay by MSISDN, quotes carry no fee, and an incoming transfer credits the payee's
 * account in its currency exactly once per transferId (a repeat gets the first answer). A final notification of
 * ABORTED takes a credit back: the switch did not move the money.
 */
export class SimulatedCoreBanking implements CoreBanking {
  private readonly credits = new Map<string, Credit>();
  /** Every final notification the connector passed on, in order. */
  readonly notifications: Array<{ transferId: string; notification: BackendTransferNotification }> = [];

  constructor(private readonly bank: SimulatedBank) {}

  async party(idType: string, idValue: string): Promise<BackendParty | undefined> {
    const customer = this.customer(idType, idValue);
    if (!customer) return undefined;
    return {
      idType: idType as BackendParty['idType'],
      idValue,
      displayName: `${customer.firstName} ${customer.lastName}`,
      firstName: customer.firstName,
      lastName: customer.lastName,
      dateOfBirth: customer.dateOfBirth,
    };
  }

  async quoteRequest(request: BackendQuoteRequest): Promise<BackendQuoteResponse> {
    this.accountFor(request.to, request.currency);
    // No fee and no commission: the payer transfers what was asked, and the payee receives all of it.
    return {
      quoteId: request.quoteId,
      transactionId: request.transactionId,
      transferAmount: request.amount,
      transferAmountCurrency: request.currency,
      payeeReceiveAmount: request.amount,
      payeeReceiveAmountCurrency: request.currency,
    };
  }

  async transfer(request: BackendTransferRequest): Promise<BackendTransferResponse> {
    const credited = this.credits.get(request.transferId);
    if (credited) return credited.response;
    const account = this.accountFor(request.to, request.currency);
    if (!this.bank.move(account.accountId, request.amount)) throw new CoreBankingRefusal('5104', `account ${account.accountId} cannot take ${request.amount}`);
    const response: BackendTransferResponse = { homeTransactionId: `${this.bank.fspId}-${request.transferId}`, transferState: 'COMMITTED' };
    this.credits.set(request.transferId, { accountId: account.accountId, amount: request.amount, response, reversed: false });
    return response;
  }

  async transferNotification(transferId: string, notification: BackendTransferNotification): Promise<void> {
    this.notifications.push({ transferId, notification });
    const credit = this.credits.get(transferId);
    if (notification.finalNotification?.transferState === 'ABORTED' && credit && !credit.reversed) {
      credit.reversed = this.bank.move(credit.accountId, `-${credit.amount}`);
    }
  }

  private customer(idType: string, idValue: string): SimulatedCustomer | undefined {
    return idType === 'MSISDN' ? this.bank.customerByMsisdn(idValue) : undefined;
  }

  /** The payee's account in the currency, or the refusal the bank answers: no such party (3204), no such currency (5106). */
  private accountFor(party: { idType: string; idValue: string }, currency: string): SimulatedAccount {
    const customer = this.customer(party.idType, party.idValue);
    if (!customer) throw new CoreBankingRefusal('3204', `no customer with ${party.idType} ${party.idValue}`, 404);
    const account = customer.accounts.find((candidate) => candidate.currency === currency);
    if (!account) throw new CoreBankingRefusal('5106', `${party.idType} ${party.idValue} holds no ${currency} account`);
    return account;
  }
}
