import crypto from 'node:crypto';
import type { ConsentRequestsPostRequest } from '../../shared/contracts/bodies';
import type { SimulatedBank } from './simulatedBank';
import type { AuthChannel, GrantedConsent, LinkableAccount, PayingAccount, ThirdpartyBackend } from '../backend/thirdpartyBackend';

/** A secret the simulated bank gave a user to authenticate a consent request, and how it reached them. */
export interface IssuedSecret {
  consentRequestId: string;
  userId: string;
  channel: AuthChannel;
  secret: string;
  /** Where the bank's login page sends the user back to, with the secret (WEB). */
  callbackUri?: string;
}

/**
 * The simulated bank's side of Document 1. An OTP is "sent" by keeping it where the user's phone would show it
 * (`secretFor`); a WEB login ends with the same kind of secret, which the bank's login page would hand the PISP
 * through the callbackUri. Consents are kept in memory; an account can be suspended (`suspend`) as a bank's back
 * office would, which the linking and payment checks then meet.
 */
export class SimulatedThirdpartyBackend implements ThirdpartyBackend {
  private readonly secrets = new Map<string, IssuedSecret>();
  private readonly consents = new Map<string, GrantedConsent>();
  private readonly suspended = new Set<string>();

  constructor(
    private readonly bank: SimulatedBank,
    private readonly loginPage = `https://${bank.fspId}.example.org/login`,
  ) {}

  async accounts(userId: string): Promise<LinkableAccount[] | undefined> {
    const customer = this.bank.customerByUserId(userId);
    return customer?.accounts.map((account) => ({
      accountNickname: account.nickname,
      address: account.accountId,
      currency: account.currency,
      active: !this.suspended.has(account.accountId),
    }));
  }

  async authChannels(userId: string): Promise<AuthChannel[]> {
    return [...(this.bank.customerByUserId(userId)?.authChannels ?? [])];
  }

  async startAuthentication(request: ConsentRequestsPostRequest, channel: AuthChannel): Promise<{ authUri?: string }> {
    // A retried activity must not change the secret the user already received.
    const issued = this.secrets.get(request.consentRequestId);
    const secret = issued?.secret ?? (channel === 'OTP' ? String(crypto.randomInt(100_000, 1_000_000)) : crypto.randomBytes(16).toString('hex'));
    const { consentRequestId, userId, callbackUri } = request;
    this.secrets.set(consentRequestId, { consentRequestId, userId, channel, secret, ...(callbackUri ? { callbackUri } : {}) });
    return channel === 'WEB' ? { authUri: `${this.loginPage}?consentRequestId=${encodeURIComponent(request.consentRequestId)}` } : {};
  }

  async verifyAuthToken(consentRequestId: string, authToken: string): Promise<boolean> {
    return this.secrets.get(consentRequestId)?.secret === authToken;
  }

  async storeConsent(consent: GrantedConsent): Promise<void> {
    this.consents.set(consent.consentId, structuredClone(consent));
  }

  async consent(consentId: string): Promise<GrantedConsent | undefined> {
    const consent = this.consents.get(consentId);
    return consent && structuredClone(consent);
  }

  async consentForAccount(address: string, pispId: string): Promise<GrantedConsent | undefined> {
    for (const consent of this.consents.values()) {
      if (consent.pispId === pispId && consent.status === 'VERIFIED' && consent.scopes.some((scope) => scope.address === address))
        return structuredClone(consent);
    }
    return undefined;
  }

  async revokeConsent(consentId: string, revokedAt: string): Promise<GrantedConsent | undefined> {
    const consent = this.consents.get(consentId);
    if (!consent) return undefined;
    if (consent.status !== 'REVOKED') Object.assign(consent, { status: 'REVOKED', revokedAt });
    return structuredClone(consent);
  }

  async payingAccount(address: string): Promise<PayingAccount | undefined> {
    const found = this.bank.account(address);
    if (!found) return undefined;
    const { customer, account } = found;
    return {
      address,
      currency: account.currency,
      active: !this.suspended.has(address),
      holder: { partyIdType: 'MSISDN', partyIdentifier: customer.msisdn, firstName: customer.firstName, lastName: customer.lastName },
    };
  }

  async reserve(holdId: string, address: string, amount: string): Promise<boolean> {
    return this.bank.hold(holdId, address, amount);
  }

  async commit(holdId: string, amount: string): Promise<boolean> {
    return this.bank.commitHold(holdId, amount);
  }

  async release(holdId: string): Promise<void> {
    this.bank.releaseHold(holdId);
  }

  /** The secret the user received for a consent request (the SMS on their phone, the token after the web login). */
  secretFor(consentRequestId: string): IssuedSecret | undefined {
    return this.secrets.get(consentRequestId);
  }

  /** The one-time passwords the bank sent a user, oldest first: what their phone shows. */
  otpsSentTo(userId: string): IssuedSecret[] {
    return [...this.secrets.values()].filter((issued) => issued.userId === userId && issued.channel === 'OTP');
  }

  /** The bank's back office suspends an account: it can no longer be linked or paid from. */
  suspend(accountId: string): void {
    this.suspended.add(accountId);
  }
}
