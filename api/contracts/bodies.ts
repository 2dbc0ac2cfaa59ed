import type { v1_1 } from '@mojaloop/api-snippets';

/** FSPIOP v1.1 bodies, typed from the published Mojaloop OpenAPI document. */
export type TransfersPostRequest = v1_1.Schemas.TransfersPostRequest;
export type TransfersIDPutResponse = v1_1.Schemas.TransfersIDPutResponse;
export type QuotesPostRequest = v1_1.Schemas.QuotesPostRequest;
export type QuotesIDPutResponse = v1_1.Schemas.QuotesIDPutResponse;
export type ErrorInformationObject = v1_1.Schemas.ErrorInformationObject;
export type PartiesTypeIDPutResponse = v1_1.Schemas.PartiesTypeIDPutResponse;
export type BulkTransfersPostRequest = v1_1.Schemas.BulkTransfersPostRequest;
export type BulkTransfersIDPutResponse = v1_1.Schemas.BulkTransfersIDPutResponse;
export type IndividualTransfer = v1_1.Schemas.IndividualTransfer;
export type IndividualTransferResult = v1_1.Schemas.IndividualTransferResult;

/** A transfer's state as FSPIOP names it (TransferState), kept in the switch's record of each transfer. */
export type TransferState = v1_1.Schemas.TransferState;

/** A bulk transfer's state as FSPIOP names it (BulkTransferState), kept in the switch's record of each bulk. */
export type BulkTransferState = v1_1.Schemas.BulkTransferState;
