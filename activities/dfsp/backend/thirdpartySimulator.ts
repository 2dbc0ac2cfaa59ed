import crypto from 'node:crypto';
import type { ConsentRequestsPostRequest } from '../../../api/contracts/bodies';
import type { SimulatedBank } from './simulatedBank';
import type { GrantedConsent, LinkableAccount, ThirdpartyBackend } from './thirdpartyBackend';

/** A secret the simulated bank gave a user to authenticate a consent request, and how it reached them. */
export interface IssuedSecret {
  consentRequestId: string;
  userId: string;
  channel: 'WEB' | 'OTP';
  secret: string;
}

/**
 * The simulated bank's side of Document 1. An OTP is "sent" by keeping it where the user's phone would show it
 * (`secretFor`); a WEB login ends with the same kind of secret, which the bank's login page would hand the PISP
 * through the callbackUri. Consents are kept in memory.
 */
export class SimulatedThirdpartyBackend implements ThirdpartyBackend {
  private readonly secrets = new Map<string, IssuedSecret>();
  private readonly consents = new Map<string, GrantedConsent>();

  constructor(
    private readonly bank: SimulatedBank,
    private readonly loginPage = `https://${bank.fspId}.example.org/login`,
  ) {}

  async accounts(userId: string): Promise<LinkableAccount[] | undefined> {
    const customer = this.bank.customerByUserId(userId);
    return customer?.accounts.map((account) => ({ accountNickname: account.nickname, address: account.accountId, currency: account.currency }));
  }

  async startAuthentication(request: ConsentRequestsPostRequest, channel: 'WEB' | 'OTP'): Promise<{ authUri?: string }> {
    const secret = channel === 'OTP' ? String(crypto.randomInt(100_000, 1_000_000)) : crypto.randomBytes(16).toString('hex');
    this.secrets.set(request.consentRequestId, { consentRequestId: request.consentRequestId, userId: request.userId, channel, secret });
    return channel === 'WEB' ? { authUri: `${this.loginPage}?consentRequestId=${encodeURIComponent(request.consentRequestId)}` } : {};
  }

  async verifyAuthToken(consentRequestId: string, authToken: string): Promise<boolean> {
    return this.secrets.get(consentRequestId)?.secret === authToken;
  }

  async storeConsent(consent: GrantedConsent): Promise<void> {
    this.consents.set(consent.consentId, { ...consent });
  }

  async consent(consentId: string): Promise<GrantedConsent | undefined> {
    return this.consents.get(consentId);
  }

  /** The secret the user received for a consent request (the SMS on their phone, the token after the web login). */
  secretFor(consentRequestId: string): IssuedSecret | undefined {
    return this.secrets.get(consentRequestId);
  }
}
