import { defineQuery } from '@temporalio/workflow';
import type { ThirdpartyRequestsTransactionsIDPutResponse } from '../../activities/shared/contracts/bodies';
import type { ErrorInformation } from '../../activities/shared/contracts/errors';

// Names the DFSP's third-party gateway (api/dfsp/thirdpartyInbound.ts) and its workflows share.

/** The third-party DFSP role's conversations besides linking and transaction requests, by readable IDs. */
export const thirdpartyWorkflowIds = {
  /** One GET /accounts/{ID} answered; `key` makes each request its own run. */
  accounts: (userId: string, key: string) => `dfspAccounts/${userId}/${key}`,
  /** One GET /thirdpartyRequests/transactions/{ID} answered; `key` makes each request its own run. */
  transactionStatus: (transactionRequestId: string, key: string) => `dfspTransactionStatus/${transactionRequestId}/${key}`,
  /** One repeated POST /consentRequests of a linking that has ended, answered; `key` makes each its own run. */
  consentRequestRepeat: (consentRequestId: string, key: string) => `dfspConsentRequestRepeat/${consentRequestId}/${key}`,
  /** The revocation of a consent the DFSP granted, by its PISP's DELETE or the Auth service's PATCH. */
  unlinking: (consentId: string) => `dfspUnlinking/${consentId}`,
} as const;

/** Where a third-party transaction request stands, as a status query (payment flow rule 8) is answered from it. */
export interface ThirdpartyTransactionView {
  /** FSPIOP-Source of the POST: only it may ask (Document 1, "Authentication"). */
  originator: string;
  transactionId?: string;
  transactionRequestState?: ThirdpartyRequestsTransactionsIDPutResponse['transactionRequestState'];
  transactionState?: 'RECEIVED' | 'PENDING' | 'COMPLETED' | 'REJECTED';
  /** The error the request ended with, sent to the PISP and given again to a status query. */
  errorInformation?: ErrorInformation;
}

export const thirdpartyTransactionQuery = defineQuery<ThirdpartyTransactionView>('thirdpartyTransaction');

/** Where a linking stands, for operators and tests. */
export interface DfspLinkingView {
  state: 'RECEIVED' | 'AUTHENTICATING' | 'GRANTED' | 'REGISTERING' | 'LINKED' | 'FAILED';
  pisp?: string;
  consentId?: string;
  errorInformation?: ErrorInformation;
}

export const dfspLinkingQuery = defineQuery<DfspLinkingView>('dfspLinking');
