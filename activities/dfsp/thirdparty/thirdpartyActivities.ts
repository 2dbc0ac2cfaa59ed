import { errorInformation } from '../../shared/contracts/errors';
import { ApplicationFailure } from '@temporalio/common';
import type { ConsentRequestsPostRequest, QuotesIDPutResponse, ThirdpartyRequestsTransactionsPostRequest } from '../../shared/contracts/bodies';
import type { Checked } from '../../shared/contracts/checked';
import type { AuthChannel, GrantedConsent, LinkableAccount, ThirdpartyBackend } from '../backend/thirdpartyBackend';
import type { DfspDependencies } from '../dependencies';
import { transactionChallenge } from './challenge';
import { checkConsentRequest } from './consentRequestRules';
import { checkTransactionRequest, PayingFrom } from './transactionRequestRules';

/** Who the connector is in the scheme, for the messages its workflows address. */
export interface ThirdpartyIdentity {
  /** This DFSP's participant ID (the fspId of its THIRD_PARTY_LINK entries, the payerFsp of its transfers). */
  dfspId: string;
  /** The Auth service that registers consents and verifies signed challenges (AUTH_SERVICE_ID). */
  authServiceId: string;
  /** How long a request waits for the switch's or the Auth service's answer (REQUEST_TIMEOUT_MS). */
  requestTimeoutMs: number;
}

/** The DFSP's third-party activities (Document 1): checks and records against its ThirdpartyBackend. */
export function createThirdpartyActivities({ config, backends }: DfspDependencies) {
  return { ...linkingActivities(config, backends.thirdparty), ...paymentActivities(backends.thirdparty) };
}

/** Account linking (Document 1): the accounts offered, the user's authentication, the consent stored and revoked. */
function linkingActivities(config: DfspDependencies['config'], bank: ThirdpartyBackend) {
  return {
    thirdpartyIdentity: async (): Promise<ThirdpartyIdentity> => ({
      dfspId: config.participantId,
      authServiceId: config.authServiceId,
      requestTimeoutMs: config.requestTimeoutMs,
    }),

    /** GET /accounts/{ID}: the accounts the user may link, as PUT /accounts/{ID} lists them; undefined for no such user. */
    linkableAccounts: async (userId: string): Promise<Array<Omit<LinkableAccount, 'active'>> | undefined> => {
      const accounts = await bank.accounts(userId);
      return accounts?.map(({ accountNickname, address, currency }) => ({ accountNickname, address, currency }));
    },

    /** Document 1's consent request checks (6205, 6101, 6204, 6104), and the channel the user authenticates on. */
    checkConsentRequest: async (request: ConsentRequestsPostRequest): Promise<Checked<{ channel: AuthChannel }>> => {
      const [accounts, channels] = await Promise.all([bank.accounts(request.userId), bank.authChannels(request.userId)]);
      return checkConsentRequest(request, accounts, channels);
    },

    /** OTP: the bank sends the secret out of band; WEB: the authUri the PISP sends the user to. */
    startUserAuthentication: (input: { request: ConsentRequestsPostRequest; channel: AuthChannel }) => bank.startAuthentication(input.request, input.channel),

    verifyAuthToken: (input: { consentRequestId: string; authToken: string }) => bank.verifyAuthToken(input.consentRequestId, input.authToken),

    storeConsent: (consent: GrantedConsent) => bank.storeConsent(consent),

    /**
     * DELETE /consents/{ID} from the PISP (Document 1, linking rule 5): only the consent's own PISP may unlink it.
     * The consent is REVOKED in the bank (again: it stays revoked, with its first revokedAt).
     */
    unlinkConsent: async (input: { consentId: string; requester: string; at: string }): Promise<Checked<{ revokedAt: string }>> => {
      const consent = await bank.consent(input.consentId);
      if (!consent || consent.pispId !== input.requester) {
        return { ok: false, errorInformation: errorInformation('consentInvalid', `no consent ${input.consentId} of ${input.requester}`) };
      }
      const revoked = await bank.revokeConsent(input.consentId, input.at);
      return { ok: true, revokedAt: revoked!.revokedAt! };
    },

    /** PATCH /consents/{ID} REVOKED from the Auth service: the consent is revoked in the bank too. */
    consentRevoked: async (input: { consentId: string; revokedAt: string }): Promise<boolean> =>
      (await bank.revokeConsent(input.consentId, input.revokedAt)) !== undefined,
  };
}

/** A PISP's payment (Document 1, payment flow): its checks, the challenge the user signs, and the funds held for it. */
function paymentActivities(bank: ThirdpartyBackend) {
  return {
    /** Payment flow rule 3, against the PISP's consent over the payer account and the account itself. */
    checkThirdpartyTransactionRequest: async (input: { request: ThirdpartyRequestsTransactionsPostRequest; pispId: string }): Promise<Checked<PayingFrom>> => {
      const address = input.request.payer.partyIdentifier;
      const [consent, account] = await Promise.all([bank.consentForAccount(address, input.pispId), bank.payingAccount(address)]);
      return checkTransactionRequest(input.request, consent, account);
    },

    transactionChallenge: async (quote: QuotesIDPutResponse): Promise<string> => transactionChallenge(quote),

    /**
     * Payment flow rule 3 (c): the account holds the amount. It is held at the bank for the request (keyed by its
     * transactionRequestId), so a second payment cannot count on the same money; 7101 when it cannot be.
     */
    reserveFunds: async (input: { transactionRequestId: string; address: string; amount: string }): Promise<Checked<object>> =>
      (await bank.reserve(input.transactionRequestId, input.address, input.amount))
        ? { ok: true }
        : { ok: false, errorInformation: errorInformation('transactionRequestNotValid', 'the account does not hold enough funds') },

    /**
     * The hold is taken from the account once the request's transfer has committed at the switch: the transfer's
     * amount, at most what was held. Retried, it takes nothing twice. A bank that has no such hold any more is an
     * error for operators: the switch has moved the money, so it is retried until someone resolves it.
     */
    commitReservation: async (input: { transactionRequestId: string; amount: string }): Promise<void> => {
      if (!(await bank.commit(input.transactionRequestId, input.amount))) {
        throw ApplicationFailure.retryable(`the bank holds no ${input.amount} for transaction request ${input.transactionRequestId}`, 'CommitFailed');
      }
    },

    /** The hold is given back when the request ended without a committed transfer. */
    releaseReservation: (transactionRequestId: string): Promise<void> => bank.release(transactionRequestId),
  };
}

export type ThirdpartyActivities = ReturnType<typeof createThirdpartyActivities>;
