import type { ConsentRequestsPostRequest, Scope } from '../../../api/contracts/bodies';

/** An account a user may link, as the PUT /accounts/{ID} list shows it. */
export interface LinkableAccount {
  accountNickname: string;
  /** The address scopes and THIRD_PARTY_LINK entries name it by. */
  address: string;
  currency: string;
}

/** A consent the DFSP granted: which PISP may do what on which accounts, and the credential the user registered. */
export interface GrantedConsent {
  consentId: string;
  consentRequestId: string;
  pispId: string;
  userId: string;
  scopes: Scope[];
  status: 'ISSUED' | 'VERIFIED' | 'REVOKED';
  credentialType?: 'FIDO' | 'GENERIC';
}

/**
 * What the DFSP connector asks of the bank's own systems for the third-party API (Document 1): its users and their
 * accounts, the user's authentication during linking (OTP sent out of band, or a web login at authUri), and where
 * consents are kept. The built-in simulator implements it; a bank plugs in its own.
 */
export interface ThirdpartyBackend {
  /** The accounts a user may link; undefined when there is no such user (6205). */
  accounts(userId: string): Promise<LinkableAccount[] | undefined>;
  /**
   * Starts authenticating the user for a consent request on the channel the DFSP chose: OTP sends the secret out of
   * band and returns nothing; WEB returns the authUri the PISP sends the user to.
   */
  startAuthentication(request: ConsentRequestsPostRequest, channel: 'WEB' | 'OTP'): Promise<{ authUri?: string }>;
  /** Whether the authToken the PISP passed on is the one the user got (and still valid). */
  verifyAuthToken(consentRequestId: string, authToken: string): Promise<boolean>;
  storeConsent(consent: GrantedConsent): Promise<void>;
  consent(consentId: string): Promise<GrantedConsent | undefined>;
}
