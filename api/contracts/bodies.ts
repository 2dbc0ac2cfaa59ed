import type { v1_1 } from '@mojaloop/api-snippets';

/** FSPIOP v1.1 bodies, typed from the published Mojaloop OpenAPI document. */
export type TransfersPostRequest = v1_1.Schemas.TransfersPostRequest;
export type TransfersIDPutResponse = v1_1.Schemas.TransfersIDPutResponse;
export type QuotesPostRequest = v1_1.Schemas.QuotesPostRequest;
export type QuotesIDPutResponse = v1_1.Schemas.QuotesIDPutResponse;
export type BulkQuotesPostRequest = v1_1.Schemas.BulkQuotesPostRequest;
export type BulkQuotesIDPutResponse = v1_1.Schemas.BulkQuotesIDPutResponse;
export type ErrorInformationObject = v1_1.Schemas.ErrorInformationObject;
export type PartiesTypeIDPutResponse = v1_1.Schemas.PartiesTypeIDPutResponse;

/** A transfer's state as FSPIOP names it (TransferState), kept in the switch's record of each transfer. */
export type TransferState = v1_1.Schemas.TransferState;
