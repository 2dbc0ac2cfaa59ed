import type { QuotesIDPutResponse, QuotesPostRequest, TransfersPostRequest } from '../../shared/contracts/bodies';
import type { Expiration } from '../../shared/contracts/expiry';
import type { BackendParty, BackendQuoteRequest, BackendQuoteResponse, BackendTransferRequest } from '../backend/coreBanking';
import type { TransactionObject } from './ilp';

/**
 * The FSPIOP bodies in the backend API's own forms and back, as the sdk-scheme-adapter projects them
 * (its model/lib/shared.js), so a core-banking adapter written for the SDK reads the same fields here.
 */

type Party = QuotesPostRequest['payee'];
type Currency = QuotesPostRequest['amount']['currency'];

/** An FSPIOP Party in the backend's form (mojaloopPartyToInternalParty). */
export function backendPartyOf(party: Party): BackendParty {
  const { partyIdInfo, name, personalInfo } = party;
  return {
    idType: partyIdInfo.partyIdType as BackendParty['idType'],
    idValue: partyIdInfo.partyIdentifier,
    ...(partyIdInfo.partySubIdOrType ? { idSubValue: partyIdInfo.partySubIdOrType } : {}),
    ...(partyIdInfo.fspId ? { fspId: partyIdInfo.fspId } : {}),
    ...(partyIdInfo.extensionList ? { extensionList: partyIdInfo.extensionList.extension } : {}),
    ...(name ? { displayName: name } : {}),
    ...(personalInfo?.dateOfBirth ? { dateOfBirth: personalInfo.dateOfBirth } : {}),
    ...(personalInfo?.complexName?.firstName ? { firstName: personalInfo.complexName.firstName } : {}),
    ...(personalInfo?.complexName?.middleName ? { middleName: personalInfo.complexName.middleName } : {}),
    ...(personalInfo?.complexName?.lastName ? { lastName: personalInfo.complexName.lastName } : {}),
  };
}

/** POST /quotes as the backend's POST /quoterequests (mojaloopQuoteRequestToInternal). */
export function backendQuoteRequestOf(request: QuotesPostRequest): BackendQuoteRequest {
  return {
    quoteId: request.quoteId,
    transactionId: request.transactionId,
    ...(request.transactionRequestId ? { transactionRequestId: request.transactionRequestId } : {}),
    to: backendPartyOf(request.payee),
    from: backendPartyOf(request.payer),
    amountType: request.amountType,
    amount: request.amount.amount,
    currency: request.amount.currency as BackendQuoteRequest['currency'],
    transactionType: request.transactionType.scenario as BackendQuoteRequest['transactionType'],
    ...(request.transactionType.subScenario ? { subScenario: request.transactionType.subScenario } : {}),
    initiator: request.transactionType.initiator,
    initiatorType: request.transactionType.initiatorType,
    ...(request.fees ? { feesAmount: request.fees.amount, feesCurrency: request.fees.currency as BackendQuoteRequest['currency'] } : {}),
    ...(request.geoCode ? { geoCode: request.geoCode } : {}),
    ...(request.note ? { note: request.note } : {}),
    ...(request.expiration ? { expiration: request.expiration } : {}),
    ...(request.extensionList ? { extensionList: request.extensionList.extension } : {}),
  };
}

/** The backend's quote as the PUT /quotes/{ID} body, before the ILP packet and condition are added (internalQuoteResponseToMojaloop). */
export function mojaloopQuoteOf(response: BackendQuoteResponse, expiration: Expiration): Omit<QuotesIDPutResponse, 'ilpPacket' | 'condition'> {
  const money = (amount: string, currency: string | undefined) => ({ amount, currency: (currency ?? response.transferAmountCurrency) as Currency });
  return {
    transferAmount: money(response.transferAmount, response.transferAmountCurrency),
    expiration,
    ...(response.payeeReceiveAmount ? { payeeReceiveAmount: money(response.payeeReceiveAmount, response.payeeReceiveAmountCurrency) } : {}),
    ...(response.payeeFspFeeAmount ? { payeeFspFee: money(response.payeeFspFeeAmount, response.payeeFspFeeAmountCurrency) } : {}),
    ...(response.payeeFspCommissionAmount ? { payeeFspCommission: money(response.payeeFspCommissionAmount, response.payeeFspCommissionAmountCurrency) } : {}),
    ...(response.geoCode ? { geoCode: response.geoCode } : {}),
    ...(response.extensionList?.length ? { extensionList: { extension: response.extensionList as Array<{ key: string; value: string }> } } : {}),
  };
}

/**
 * POST /transfers as the backend's POST /transfers (mojaloopPrepareToInternalTransfer), from the transaction in the
 * packet the connector issued with its quote: the quote's parties, amount and terms, with the transaction itself as
 * `ilpPacket.data`.
 */
export function backendTransferOf(transfer: TransfersPostRequest, transaction: TransactionObject): BackendTransferRequest {
  const { transactionType } = transaction;
  return {
    transferId: transfer.transferId,
    quote: {
      quoteId: transaction.quoteId,
      transactionId: transaction.transactionId,
      transferAmount: transaction.amount.amount,
      transferAmountCurrency: transaction.amount.currency as BackendQuoteRequest['currency'],
      ...(transaction.expiration ? { expiration: transaction.expiration } : {}),
    },
    from: backendPartyOf(transaction.payer),
    to: backendPartyOf(transaction.payee),
    amount: transfer.amount.amount,
    currency: transfer.amount.currency as BackendQuoteRequest['currency'],
    transactionType: transactionType.scenario as BackendQuoteRequest['transactionType'],
    ...(transactionType.subScenario ? { subScenario: transactionType.subScenario } : {}),
    ...(transaction.note ? { note: transaction.note } : {}),
    ilpPacket: { data: transaction as unknown as BackendTransferRequest['ilpPacket']['data'] },
  };
}
