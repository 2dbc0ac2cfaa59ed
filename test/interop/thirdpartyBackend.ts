import crypto from 'node:crypto';
import { RecordingBackend, type BackendAnswer } from './recordingBackend';

/** An account a user holds at the bank, as the thirdparty-sdk hands it on in PUT /accounts/{ID}. */
export interface BankAccount {
  accountNickname: string;
  address: string;
  currency: string;
}

/** A user of the bank: their accounts, the MSISDN they pay from, and how the bank authenticates them for a linking. */
export interface BankUser {
  accounts: BankAccount[];
  msisdn: string;
  firstName: string;
  lastName: string;
  channel: 'OTP' | 'WEB';
}

/** A consent the bank keeps once the Auth service has verified its credential (the SDK's POST /store/consent). */
interface StoredConsent {
  consentId: string;
  scopes: Array<{ address: string; actions: string[] }>;
}

/**
 * The bank's own system behind a thirdparty-sdk DFSP (its DFSP_BACKEND_URI): the SDK asks it for a user's accounts
 * (GET /accounts/{userId}), to check a consent request and authenticate the user (an OTP sent, or the bank's login
 * page for WEB), to check the secret the user gave the PISP, to keep the consent once the Auth service has verified
 * its credential, and to check a third-party transaction request against the consent that covers its account.
 * Everything the SDK sends is recorded for the checks.
 */
export class ThirdpartyBackend extends RecordingBackend {
  readonly users = new Map<string, BankUser>();
  /** The secret each consent request's user received: the OTP on their phone, the token the login page handed back. */
  readonly secrets = new Map<string, string>();
  private readonly consents: StoredConsent[] = [];
  private readonly userOf = new Map<string, string>();

  /** `dfspId`: the DFSP whose bank this is, which its payers' party information names. */
  constructor(private readonly dfspId: string) {
    super();
  }

  static start(dfspId: string): Promise<ThirdpartyBackend> {
    return new ThirdpartyBackend(dfspId).listen();
  }

  /** The page the bank sends a WEB-channel user to. */
  readonly loginPage = 'https://bank.example.org/login';

  protected answer(method: string, path: string, body: any): BackendAnswer {
    const userAccounts = /^\/accounts\/([^/]+)$/.exec(path);
    if (method === 'GET' && userAccounts) {
      const user = this.users.get(decodeURIComponent(userAccounts[1]));
      // The SDK takes the error code of a refusal from its body's statusCode (3200: no such user).
      return user ? { status: 200, body: { accounts: user.accounts } } : { status: 404, body: { statusCode: '3200' } };
    }
    if (method === 'POST' && path === '/validateConsentRequests') {
      const user = this.users.get(body?.userId);
      if (!user)
        return { status: 200, body: { isValid: false, errorInformation: { errorCode: '7209', errorDescription: 'FSP does not find scopes suitable' } } };
      this.userOf.set(body.consentRequestId, body.userId);
      const data =
        user.channel === 'WEB' ? { authChannels: ['WEB'], authUri: `${this.loginPage}?consentRequestId=${body.consentRequestId}` } : { authChannels: ['OTP'] };
      return { status: 200, body: { isValid: true, data } };
    }
    // The OTP goes to the user's phone; the WEB login hands its token back to the PISP through the callbackUri.
    if (method === 'POST' && path === '/sendOTP') return this.issue(body?.consentRequestId, String(crypto.randomInt(100_000, 1_000_000)));
    const webLogin = /^\/store\/consentRequests\/([^/]+)$/.exec(path);
    if (method === 'POST' && webLogin) return this.issue(decodeURIComponent(webLogin[1]), crypto.randomBytes(12).toString('hex'));
    if (method === 'POST' && path === '/validateAuthToken') {
      const expected = this.secrets.get(body?.consentRequestId);
      return { status: 200, body: { isValid: expected !== undefined && body?.authToken === expected } };
    }
    if (method === 'POST' && path === '/store/consent') {
      this.consents.push({ consentId: body.consentId, scopes: body.scopes });
      return { status: 200, body: {} };
    }
    if (method === 'POST' && path === '/validate-thirdparty-transaction-request') return this.validateTransaction(body);
    return { status: 404, body: { statusCode: '3002' } };
  }

  private issue(consentRequestId: string, secret: string): BackendAnswer {
    if (!this.secrets.has(consentRequestId)) this.secrets.set(consentRequestId, secret);
    return { status: 200, body: {} };
  }

  /** The account the PISP names (THIRD_PARTY_LINK) must be one a stored consent covers; the bank names its holder. */
  private validateTransaction(request: any): BackendAnswer {
    const address = request?.payer?.partyIdentifier;
    const consent = [...this.consents].reverse().find((stored) => stored.scopes.some((scope) => scope.address === address));
    const holder = [...this.users.values()].find((user) => user.accounts.some((account) => account.address === address));
    if (!consent || !holder) return { status: 200, body: { isValid: false } };
    return {
      status: 200,
      body: {
        isValid: true,
        consentId: consent.consentId,
        payerPartyIdInfo: { partyIdType: 'MSISDN', partyIdentifier: holder.msisdn, fspId: this.dfspId },
        payerPersonalInfo: { complexName: { firstName: holder.firstName, lastName: holder.lastName }, dateOfBirth: '1990-01-01' },
      },
    };
  }
}
