import type { ConsentRequestsPostRequest, Scope } from '../../shared/contracts/bodies';

/** A channel a user proves who they are on during linking (Document 1, "Authentication"). */
export type AuthChannel = 'WEB' | 'OTP';

/** An account a user may link, as the PUT /accounts/{ID} list shows it. */
export interface LinkableAccount {
  accountNickname: string;
  /** The address scopes and THIRD_PARTY_LINK entries name it by. */
  address: string;
  currency: string;
  /** Whether the bank lets the account be linked and paid from (not suspended or closed). */
  active: boolean;
}

/** A linked account as the payer DFSP needs it to check a third-party transaction request (its funds are held apart). */
export interface PayingAccount {
  address: string;
  currency: string;
  active: boolean;
  /** Who holds it, as the quote to the payee FSP names the payer (an FSPIOP party, not the THIRD_PARTY_LINK). */
  holder: { partyIdType: 'MSISDN' | 'ACCOUNT_ID'; partyIdentifier: string; firstName?: string; lastName?: string };
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
  revokedAt?: string;
}

/**
 * What the DFSP connector asks of the bank's own systems for the third-party API (Document 1): its users and their
 * accounts, the user's authentication during linking (OTP sent out of band, or a web login at authUri), where
 * consents are kept, and the funds of a linked account held for a payment from it, then taken or released. Every method that changes
 * something is idempotent (activities retry). The built-in simulator implements it; a bank plugs in its own.
 */
export interface ThirdpartyBackend {
  /** The accounts a user may link; undefined when there is no such user (6205). */
  accounts(userId: string): Promise<LinkableAccount[] | undefined>;
  /**
   * The channels the bank can authenticate the user on (a web login, a phone or e-mail for an OTP), in the bank's
   * order of preference; the DFSP picks the first the PISP offers (Document 1: the DFSP picks the channel).
   */
  authChannels(userId: string): Promise<AuthChannel[]>;
  /**
   * Starts authenticating the user for a consent request on the channel the DFSP chose: OTP sends the secret out of
   * band and returns nothing; WEB returns the authUri the PISP sends the user to.
   */
  startAuthentication(request: ConsentRequestsPostRequest, channel: AuthChannel): Promise<{ authUri?: string }>;
  /** Whether the authToken the PISP passed on is the one the user got (and still valid). */
  verifyAuthToken(consentRequestId: string, authToken: string): Promise<boolean>;
  storeConsent(consent: GrantedConsent): Promise<void>;
  consent(consentId: string): Promise<GrantedConsent | undefined>;
  /** The VERIFIED consent `pispId` holds over the account at `address`, if any (payment rule 3 a and b). */
  consentForAccount(address: string, pispId: string): Promise<GrantedConsent | undefined>;
  /** Marks a consent REVOKED (again: nothing changes); returns it, or undefined when the bank holds no such consent. */
  revokeConsent(consentId: string, revokedAt: string): Promise<GrantedConsent | undefined>;
  /** A linked account's currency, balance and holder; undefined when the bank has no such account. */
  payingAccount(address: string): Promise<PayingAccount | undefined>;
  /**
   * Holds `amount` of the account for a third-party transaction request (a pending debit keyed by `holdId`, its
   * transactionRequestId) as the request is checked, so two payments cannot both count on the same money. Again with
   * the same holdId: nothing more is held (true). False when the account is unknown or cannot spend the amount.
   */
  reserve(holdId: string, address: string, amount: string): Promise<boolean>;
  /**
   * Takes `amount` (the committed transfer's, at most what is held) from the account and ends the hold, once the
   * transfer from it has committed at the switch. Again: nothing more is taken (true). False when no such hold is held.
   */
  commit(holdId: string, amount: string): Promise<boolean>;
  /** Ends the hold without taking anything, when the request ended otherwise. Again, or for no such hold: nothing. */
  release(holdId: string): Promise<void>;
}
