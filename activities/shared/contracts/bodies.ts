import type { thirdparty, v1_1 } from '@mojaloop/api-snippets';
import type { Expiration } from './expiry';

/**
 * A body whose expiration the gateway has read (validateFspiop, activities/shared/contracts/expiry.ts): everything after the edge
 * decides expiry from it, never from unread text.
 */
type Expiring<Body extends { expiration?: string }> = Omit<Body, 'expiration'> &
  (undefined extends Body['expiration'] ? { expiration?: Expiration } : { expiration: Expiration });

/** FSPIOP v1.1 bodies, typed from the published Mojaloop OpenAPI document. */
export type TransfersPostRequest = Expiring<v1_1.Schemas.TransfersPostRequest>;
export type TransfersIDPutResponse = v1_1.Schemas.TransfersIDPutResponse;
export type QuotesPostRequest = Expiring<v1_1.Schemas.QuotesPostRequest>;
export type QuotesIDPutResponse = Expiring<v1_1.Schemas.QuotesIDPutResponse>;
export type BulkQuotesPostRequest = Expiring<v1_1.Schemas.BulkQuotesPostRequest>;
export type BulkQuotesIDPutResponse = Expiring<v1_1.Schemas.BulkQuotesIDPutResponse>;
export type ErrorInformationObject = v1_1.Schemas.ErrorInformationObject;
export type PartiesTypeIDPutResponse = v1_1.Schemas.PartiesTypeIDPutResponse;
export type TransactionRequestsPostRequest = Expiring<v1_1.Schemas.TransactionRequestsPostRequest>;
export type TransactionRequestsIDPutResponse = v1_1.Schemas.TransactionRequestsIDPutResponse;
/** `responseType` is any text, as Mojaloop's transaction-requests service takes it (schemas.ts, MOJALOOP_READINGS). */
export type AuthorizationsIDPutResponse = Omit<v1_1.Schemas.AuthorizationsIDPutResponse, 'responseType'> & { responseType: string };
export type TransactionsIDPutResponse = v1_1.Schemas.TransactionsIDPutResponse;
export type BulkTransfersPostRequest = Expiring<v1_1.Schemas.BulkTransfersPostRequest>;
export type BulkTransfersIDPutResponse = v1_1.Schemas.BulkTransfersIDPutResponse;
export type IndividualTransfer = v1_1.Schemas.IndividualTransfer;
export type IndividualTransferResult = v1_1.Schemas.IndividualTransferResult;

/** A transfer's state as FSPIOP names it (TransferState), kept in the switch's record of each transfer. */
export type TransferState = v1_1.Schemas.TransferState;
/** Every TransferState, as the switch records them. */
export const TRANSFER_STATES = ['RECEIVED', 'RESERVED', 'COMMITTED', 'ABORTED'] as const satisfies readonly TransferState[];

/**
 * Where a transaction request stands for the switch: REQUESTED until the payer FSP answers, then the last state the
 * payer reported (TransactionRequestState), ERROR after an error callback (the payer's or the hub's), EXPIRED when
 * nobody answered in time.
 */
export type TransactionRequestRecordState = 'REQUESTED' | v1_1.Schemas.TransactionRequestState | 'ERROR' | 'EXPIRED';

/** The query string of GET /authorizations/{ID} (Document 2, /authorizations), every key required. */
export interface AuthorizationQuery {
  authenticationType: v1_1.Schemas.AuthenticationType;
  retriesLeft: string;
  amount: string;
  currency: v1_1.Schemas.Currency;
}
/** A bulk transfer's state as FSPIOP names it (BulkTransferState), kept in the switch's record of each bulk. */
export type BulkTransferState = v1_1.Schemas.BulkTransferState;

/** Third-party API v1.0 bodies (Document 1), typed from the published Mojaloop OpenAPI document. */
export type ConsentsPostRequestAUTH = thirdparty.Schemas.ConsentsPostRequestAUTH;
export type ConsentsPostRequestPISP = thirdparty.Schemas.ConsentsPostRequestPISP;
export type ConsentsIDPutResponseVerified = thirdparty.Schemas.ConsentsIDPutResponseVerified;
export type ConsentsIDPatchResponseRevoked = thirdparty.Schemas.ConsentsIDPatchResponseRevoked;
export type ConsentRequestsPostRequest = thirdparty.Schemas.ConsentRequestsPostRequest;
export type Scope = thirdparty.Schemas.Scope;
export type SignedCredential = thirdparty.Schemas.SignedCredential;
export type ThirdpartyRequestsTransactionsPostRequest = Expiring<thirdparty.Schemas.ThirdpartyRequestsTransactionsPostRequest>;
export type ThirdpartyRequestsTransactionsIDPutResponse = thirdparty.Schemas.ThirdpartyRequestsTransactionsIDPutResponse;
export type ThirdpartyRequestsTransactionsIDPatchResponse = thirdparty.Schemas.ThirdpartyRequestsTransactionsIDPatchResponse;
export type ThirdpartyRequestsAuthorizationsPostRequest = thirdparty.Schemas.ThirdpartyRequestsAuthorizationsPostRequest;
export type ThirdpartyRequestsAuthorizationsIDPutResponse = thirdparty.Schemas.ThirdpartyRequestsAuthorizationsIDPutResponse;
export type ThirdpartyRequestsVerificationsPostRequest = thirdparty.Schemas.ThirdpartyRequestsVerificationsPostRequest;
export type ThirdpartyRequestsVerificationsIDPutResponse = thirdparty.Schemas.ThirdpartyRequestsVerificationsIDPutResponse;
export type ServiceType = thirdparty.Schemas.ServiceType;
