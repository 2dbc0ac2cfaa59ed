import { defineQuery, setHandler, uuid4 } from '@temporalio/workflow';
import type { Types as Outbound } from '@mojaloop/api-snippets/lib/sdk-scheme-adapter/v2_1_0/outbound/types';
import type { PartiesTypeIDPutResponse, QuotesPostRequest, TransfersPostRequest } from '../../activities/shared/contracts/bodies';
import type { ErrorInformation } from '../../activities/shared/contracts/errors';
import { type Expiration, expirationAt } from '../../activities/shared/contracts/expiry';
import { mojaloopPartyOf } from '../../activities/shared/contracts/mojaloopParty';
import { errorInformationOf, OutgoingMessage } from '../../activities/shared/contracts/peers';
import { ExchangeOutcome, exchangeInTurn } from '../participant/exchange';
import { requestQuote, transferFunds } from './payer';

/** The outbound API's POST /transfers body and its answer (sdk-scheme-adapter v2.1.0). */
export type OutboundTransferRequest = Outbound.transferRequest & { transferId?: string };
export type OutboundTransferResponse = Outbound.transferResponse & { transferId: string; initiatedTimestamp?: string; direction?: 'OUTBOUND' };

export interface DfspTransferInput {
  transferId: string;
  /** This DFSP, the payer FSP. */
  payerFsp: string;
  request: OutboundTransferRequest;
  /** How long each step waits for its callback (REQUEST_TIMEOUT_MS). */
  waitMs: number;
}

/** The transfer as the outbound API shows it (GET /transfers/{transferId}, and a POST that outlives its wait). */
export const transferStateQuery = defineQuery<OutboundTransferResponse>('transferState');

/** How long a quote and a transfer stand when the request names no expiry: the SDK's EXPIRY_SECONDS default. */
const DEFAULT_EXPIRY_SECONDS = 60;

type Party = Outbound.transferParty;
type LastError = NonNullable<OutboundTransferResponse['lastError']>;

/** Why a step ended the transfer: the HTTP status the outbound API answers, and the Mojaloop error behind it. */
class StepFailed extends Error {
  constructor(
    message: string,
    readonly httpStatusCode: 500 | 504,
    readonly errorInformation?: ErrorInformation,
  ) {
    super(message);
  }
}

/**
 * A transfer the bank's own systems ask for on the outbound API (the sdk-scheme-adapter's POST /transfers, with
 * AUTO_ACCEPT_PARTY and AUTO_ACCEPT_QUOTES): the payee is looked up (GET /parties), quoted (POST /quotes) and paid
 * (POST /transfers), each through the switch, and the transfer ends COMPLETED or ERROR_OCCURRED with its lastError.
 */
export async function dfspTransfer(input: DfspTransferInput): Promise<OutboundTransferResponse> {
  const { request, waitMs, payerFsp } = input;
  const state: OutboundTransferResponse = {
    ...request,
    transferId: input.transferId,
    to: { ...request.to },
    initiatedTimestamp: new Date().toISOString(),
    direction: 'OUTBOUND',
  };
  setHandler(transferStateQuery, () => state);
  try {
    if (!(request.skipPartyLookup && request.to.fspId)) {
      const party = await resolvePayee(request.to, waitMs);
      state.getPartiesResponse = { body: party };
      Object.assign(state.to, payeeDetails(party.party));
      state.currentState = 'WAITING_FOR_PARTY_ACCEPTANCE';
    }
    const payeeFsp = state.to.fspId!;

    const quote = quoteRequestOf(state, payerFsp, request);
    state.quoteId = quote.quoteId;
    const quoted = await requestQuote(payeeFsp, quote, waitMs);
    if (!quoted.ok) throw new StepFailed('Got an error response requesting quote', 500, quoted.errorInformation);
    state.quoteResponse = { body: quoted.body };
    state.quoteResponseSource = payeeFsp;
    state.currentState = 'WAITING_FOR_QUOTE_ACCEPTANCE';

    const prepare: TransfersPostRequest = {
      transferId: input.transferId,
      payeeFsp,
      payerFsp,
      amount: quoted.body.transferAmount,
      ilpPacket: quoted.body.ilpPacket,
      condition: quoted.body.condition,
      expiration: expiringIn(request.prepareExpirySeconds),
      ...(request.transferRequestExtensions?.length ? { extensionList: { extension: request.transferRequestExtensions } } : {}),
    };
    // Until the switch says how it ended, it is asked again every waitMs at first, then less often.
    const fulfilled = await transferFunds(payeeFsp, prepare, waitMs, waitMs);
    if (!fulfilled.ok) throw new StepFailed('Got an error response preparing transfer', 500, fulfilled.errorInformation);
    state.fulfil = { body: fulfilled.body };
    // COMMITTED carries the fulfilment of the condition, ABORTED is the switch's own word (transferFunds checks both).
    if (fulfilled.body.transferState !== 'COMMITTED') throw new StepFailed(`the switch reports the transfer ${fulfilled.body.transferState}`, 500);
    state.currentState = 'COMPLETED';
  } catch (error) {
    if (!(error instanceof StepFailed)) throw error;
    state.currentState = 'ERROR_OCCURRED';
    state.lastError = lastErrorOf(error);
  }
  return state;
}

/** GET /parties for the payee and the PUT /parties that answers it (from its FSP, through the switch). */
async function resolvePayee(to: Party, waitMs: number): Promise<PartiesTypeIDPutResponse> {
  const outcome = await lookUp(to, waitMs);
  if (outcome.kind === 'timedOut') throw new StepFailed('Timeout resolving payee', 504);
  if (outcome.kind === 'refused') throw new StepFailed('Got an error response resolving party', 500, outcome.errorInformation);
  const { message } = outcome;
  if (message.name === 'error') throw new StepFailed('Got an error response resolving party', 500, errorInformationOf(message));
  const answer = message.body as PartiesTypeIDPutResponse;
  const { partyIdInfo } = answer.party;
  // The SDK's checks: the answer is about the party asked for, and names the FSP that holds it.
  if (partyIdInfo.partyIdType !== to.idType || partyIdInfo.partyIdentifier !== to.idValue || partyIdInfo.partySubIdOrType !== to.idSubValue) {
    throw new StepFailed(`the resolved payee is not ${to.idType} ${to.idValue}`, 500);
  }
  if (!partyIdInfo.fspId) throw new StepFailed('the resolved payee has no FSP', 500);
  return answer;
}

/**
 * The lookup as an exchange named after the party (`parties/<Type>/<ID>`), where its answer comes back. Another
 * transfer may be looking the same party up at that moment: this one waits for its turn rather than share an answer
 * it did not ask for.
 */
async function lookUp(to: Party, waitMs: number): Promise<ExchangeOutcome> {
  const id = [to.idType, to.idValue, ...(to.idSubValue ? [to.idSubValue] : [])].join('/');
  // GET /parties names its destination only when the caller knows it; otherwise the switch finds it.
  const request: OutgoingMessage = { ...(to.fspId ? { to: to.fspId } : {}), resource: 'parties', name: 'get', id };
  return exchangeInTurn({ request, answerId: id, waitMs });
}

/** The payee's details the lookup gave: its FSP and names (the SDK copies them onto `to`). */
function payeeDetails(party: PartiesTypeIDPutResponse['party']): Partial<Party> {
  const name = party.personalInfo?.complexName;
  return {
    fspId: party.partyIdInfo.fspId,
    ...(name?.firstName ? { firstName: name.firstName } : {}),
    ...(name?.middleName ? { middleName: name.middleName } : {}),
    ...(name?.lastName ? { lastName: name.lastName } : {}),
    ...(party.personalInfo?.dateOfBirth ? { dateOfBirth: party.personalInfo.dateOfBirth } : {}),
    ...(party.name ? { displayName: party.name } : {}),
  };
}

/** The quote the SDK builds (_buildQuoteRequest): a new quoteId, the transferId as transactionId, a P2P by the payer. */
function quoteRequestOf(state: OutboundTransferResponse, payerFsp: string, request: OutboundTransferRequest): QuotesPostRequest {
  return {
    quoteId: uuid4(),
    transactionId: state.transferId,
    amountType: state.amountType,
    amount: { amount: state.amount, currency: state.currency },
    expiration: expiringIn(request.quoteExpirySeconds),
    payer: mojaloopPartyOf(state.from, payerFsp),
    payee: mojaloopPartyOf(state.to, state.to.fspId!),
    transactionType: {
      scenario: state.transactionType,
      ...(state.subScenario ? { subScenario: state.subScenario } : {}),
      initiator: 'PAYER',
      initiatorType: state.from.type ?? 'CONSUMER',
    },
    ...(state.note ? { note: state.note } : {}),
    ...(request.quoteRequestExtensions?.length ? { extensionList: { extension: request.quoteRequestExtensions } } : {}),
  } as QuotesPostRequest;
}

function expiringIn(seconds: number | undefined): Expiration {
  return expirationAt(Date.now() + (seconds || DEFAULT_EXPIRY_SECONDS) * 1000);
}

function lastErrorOf(failure: StepFailed): LastError {
  return {
    httpStatusCode: failure.httpStatusCode,
    ...(failure.errorInformation ? { mojaloopError: { errorInformation: failure.errorInformation } } : {}),
    message: failure.message,
  } as LastError;
}
