// The bodies of the sdk-scheme-adapter's backend API (v2.1.0), as its published OpenAPI document types them.
import type { Types as Backend } from '@mojaloop/api-snippets/lib/sdk-scheme-adapter/v2_1_0/backend/types';

/** A party in the backend's own form (idType, idValue, displayName, firstName…), as GET /parties answers it. */
export type BackendParty = Backend.transferParty;
/** POST /quoterequests: the quote the payer FSP asked for, flattened (amount, currency, from, to…). */
export type BackendQuoteRequest = Backend.quoteRequest;
/** The answer to POST /quoterequests: what the payer transfers and what the payee receives, fees and commission. */
export type BackendQuoteResponse = Backend.quoteResponse;
/**
 * POST /transfers: an incoming transfer whose condition the connector checked, with the quote it follows. The
 * connector builds it from the transaction in the transfer's ILP packet, which does not carry the quote's
 * amountType, so it is left out, as the sdk-scheme-adapter leaves it out of a transfer it holds no quote for.
 */
export type BackendTransferRequest = Omit<Backend.transferRequest, 'amountType'> & Partial<Pick<Backend.transferRequest, 'amountType'>>;
/** The answer to POST /transfers: the bank's own ID for it, and optionally its state (RESERVED or COMMITTED). */
export type BackendTransferResponse = Backend.transferResponse;
/** PUT /transfers/{transferId}: the final state the switch notified (PATCH /transfers/{ID}). */
export type BackendTransferNotification = Backend.fulfilNotification;

/**
 * A refusal the backend answered (any non-2xx), in the backend API's errorResponse form: `statusCode` is an FSPIOP
 * error code when the bank uses one (3204, 5104…), `message` its text. The connector turns it into the error
 * callback the sdk-scheme-adapter would send.
 */
export class CoreBankingRefusal extends Error {
  constructor(
    readonly statusCode: string | undefined,
    message: string | undefined,
    readonly httpStatus = 500,
  ) {
    super(message || `the backend refused the request${statusCode ? ` (${statusCode})` : ''}`);
    this.name = 'CoreBankingRefusal';
  }
}

/**
 * What the DFSP connector asks of the bank's core systems for the FSPIOP payer and payee roles, shaped as the
 * sdk-scheme-adapter's backend API (GET /parties/{idType}/{idValue}[/{idSubValue}], POST /quoterequests,
 * POST /transfers, PUT /transfers/{transferId}) so an existing core-banking adapter fits. The built-in simulator
 * implements it; BACKEND_ENDPOINT points the connector at a real one (CoreBankingClient).
 *
 * Each method either answers, throws a CoreBankingRefusal (the bank said no), or throws anything else (the bank
 * could not be reached: the connector tries again). A transfer is keyed by its transferId: the connector may
 * send the same one again after a lost answer, and the bank must credit it once.
 */
export interface CoreBanking {
  /** The party the bank holds under an identifier; undefined when there is none (3204). */
  party(idType: string, idValue: string, idSubValue?: string): Promise<BackendParty | undefined>;
  /** The bank's terms for a quote a payer FSP asked of it as payee. */
  quoteRequest(request: BackendQuoteRequest): Promise<BackendQuoteResponse>;
  /** Credits the payee of a transfer whose fulfilment the connector holds; once per transferId. */
  transfer(request: BackendTransferRequest): Promise<BackendTransferResponse>;
  /** Tells the bank how the switch finally decided a transfer it took as payee. */
  transferNotification(transferId: string, notification: BackendTransferNotification): Promise<void>;
}
