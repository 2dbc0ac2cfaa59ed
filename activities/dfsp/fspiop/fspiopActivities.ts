import { Decimal } from '../../shared/contracts/money';
import type { PartiesTypeIDPutResponse, QuotesIDPutResponse, QuotesPostRequest, TransfersPostRequest } from '../../shared/contracts/bodies';
import { errorInformation, ErrorInformation } from '../../shared/contracts/errors';
import { expirationAt, lapsed, parseExpiration } from '../../shared/contracts/expiry';
import type { BackendTransferNotification } from '../backend/coreBanking';
import type { DfspDependencies } from '../dependencies';
import { mojaloopPartyOf } from '../../shared/contracts/mojaloopParty';
import { backendQuoteRequestOf, backendTransferOf, mojaloopQuoteOf } from './backendForms';
import { refusalOf } from './backendRefusals';
import { conditionOf, fulfilmentOf, IlpAmountError, ilpFor, transactionIn, transactionObjectOf, TransactionObject } from './ilp';

/** What a payee step came to: the body of its answer, or the ErrorInformation of its error callback. */
export type PayeeOutcome<T> = { ok: true; body: T } | { ok: false; errorInformation: ErrorInformation };

/** The fulfilment of an incoming transfer, and the transaction its packet carries. */
export interface Fulfilled {
  fulfilment: string;
  transaction: TransactionObject;
}

/**
 * The secret a connector uses when ILP_SECRET is not set: fine for the demo and tests, which run on one machine,
 * and the reason a production deployment sets its own (anyone who knows this one can fulfil its transfers).
 */
export const DEVELOPMENT_ILP_SECRET = 'development ILP secret: set ILP_SECRET';

/** How long a quote stands when the backend names no expiration: the sdk-scheme-adapter's EXPIRY_SECONDS default. */
const QUOTE_EXPIRY_MS = 60_000;

const refused = (error: ErrorInformation): PayeeOutcome<never> => ({ ok: false, errorInformation: error });

/**
 * The DFSP's FSPIOP payee activities (Document 2): each asks its CoreBanking backend as the sdk-scheme-adapter
 * would, and turns the bank's refusal into the error callback the SDK sends. A bank that cannot be reached fails
 * the activity, for the workflow's retry policy.
 */
export function createFspiopActivities(dependencies: DfspDependencies) {
  const payee: Payee = {
    ...dependencies,
    secret: dependencies.config.ilpSecret ?? DEVELOPMENT_ILP_SECRET,
    asking: askingBackend(dependencies.log),
  };
  return { ...lookupAndQuoteActivities(payee), ...fulfilmentActivities(payee), ...creditActivities(payee) };
}

/** Runs a backend call, turning its refusal into an outcome; anything else is thrown for the retry policy. */
type Asking = <T>(what: string, call: () => Promise<T>) => Promise<PayeeOutcome<T>>;

function askingBackend(log: DfspDependencies['log']): Asking {
  return async (what, call) => {
    try {
      return { ok: true, body: await call() };
    } catch (error) {
      const refusal = refusalOf(error);
      if (!refusal) throw error;
      log.info({ errorInformation: refusal }, `the backend refused ${what}`);
      return refused(refusal);
    }
  };
}

/** What the payee's activities share: the connector's dependencies, its ILP secret, and how it asks the bank. */
interface Payee extends DfspDependencies {
  secret: string;
  asking: Asking;
}

/** Who holds a party, and the payee's terms for a quote. */
function lookupAndQuoteActivities({ config, backends: { coreBanking }, secret, asking }: Payee) {
  return {
    /** GET /parties/{Type}/{ID}[/{SubId}]: the PUT /parties body for the party the bank holds, else 3204. */
    async partyLookup(partyId: string): Promise<PayeeOutcome<PartiesTypeIDPutResponse>> {
      const [idType, idValue, idSubValue] = partyId.split('/');
      const found = await asking(`party ${partyId}`, () => coreBanking.party(idType, idValue, idSubValue));
      if (!found.ok) return found;
      if (!found.body) return refused(errorInformation('partyNotFound'));
      // The answer names the party as the path did: the payer matches it to its request by those.
      const named = { ...found.body, idType: idType as typeof found.body.idType, idValue, idSubValue };
      return { ok: true, body: { party: mojaloopPartyOf(named, config.participantId) } };
    },

    /**
     * POST /quotes: the bank's terms (POST /quoterequests), then the ILP packet of the agreed transaction and its
     * condition, whose fulfilment only this connector can derive.
     */
    async quoteAsPayee(request: QuotesPostRequest): Promise<PayeeOutcome<QuotesIDPutResponse>> {
      const terms = await asking(`quote ${request.quoteId}`, () => coreBanking.quoteRequest(backendQuoteRequestOf(request)));
      if (!terms.ok) return terms;
      const named = terms.body.expiration;
      // The bank's answer is an edge of its own: its expiration is read here, as the gateway reads a DFSP's.
      const expiration = named === undefined ? expirationAt(Date.now() + QUOTE_EXPIRY_MS) : parseExpiration(named);
      if (!expiration) return refused(errorInformation('validationError', `the quote's expiration ${named} names no date and time`));
      const answer = mojaloopQuoteOf(terms.body, expiration);
      try {
        const { ilpPacket, condition } = ilpFor(transactionObjectOf(request, answer), secret);
        return { ok: true, body: { ...answer, ilpPacket, condition } };
      } catch (error) {
        if (error instanceof IlpAmountError) return refused(errorInformation('validationError', error.message));
        throw error;
      }
    },
  };
}

/** The fulfilment of an incoming transfer, and whether a fulfilment meets a condition. */
function fulfilmentActivities({ config, secret }: Payee) {
  return {
    /**
     * The fulfilment of an incoming transfer, re-derived from its ILP packet; refused (3100) when the packet is not
     * one this connector issued or the transfer's condition is not that packet's (Document 2, transfer rule 6), or
     * its amount or payee FSP is not the quote's; refused 3302 once the quote has expired, and 3303 once the
     * transfer has (the switch aborts it then: a payee credited after that would keep money the switch never moved).
     */
    async fulfilmentFor(transfer: TransfersPostRequest): Promise<PayeeOutcome<Fulfilled>> {
      const transaction = transactionIn(transfer.ilpPacket);
      if (!transaction) return refused(errorInformation('validationError', 'the ILP packet holds no transaction'));
      const fulfilment = fulfilmentOf(transaction, secret);
      if (conditionOf(fulfilment) !== transfer.condition) {
        return refused(errorInformation('validationError', 'the condition does not match the ILP packet of the quote'));
      }
      // Document 2, transfer rule 2: a transfer on an expired quote is rejected.
      const quoteExpiration = transaction.expiration === undefined ? undefined : parseExpiration(transaction.expiration);
      if (quoteExpiration && lapsed(quoteExpiration, Date.now())) {
        return refused(errorInformation('quoteExpired', `quote ${transaction.quoteId} expired at ${transaction.expiration}`));
      }
      // Document 2, transfer rule 2: nor is a transfer past its own expiration (3303, as the SDK and the switch name it).
      if (lapsed(transfer.expiration, Date.now())) {
        return refused(errorInformation('transferExpired', `transfer ${transfer.transferId} expired at ${transfer.expiration}`));
      }
      const { amount } = transaction;
      if (amount.currency !== transfer.amount.currency || !new Decimal(amount.amount).equals(transfer.amount.amount)) {
        return refused(errorInformation('validationError', `the transfer amount is not the quoted ${amount.amount} ${amount.currency}`));
      }
      if (transaction.payee.partyIdInfo.fspId !== undefined && transaction.payee.partyIdInfo.fspId !== config.participantId) {
        return refused(errorInformation('validationError', 'the ILP packet names another payee FSP'));
      }
      return { ok: true, body: { fulfilment, transaction } };
    },

    /**
     * Whether a COMMITTED the payer is told carries the fulfilment of its transfer's condition (ILP: the condition is
     * its SHA-256), without which the sdk-scheme-adapter refuses it ("Invalid fulfilment received from peer DFSP").
     */
    async fulfilsCondition(fulfilment: string, condition: string): Promise<boolean> {
      return conditionOf(fulfilment) === condition;
    },
  };
}

/** The payee's credit at the bank, and the final state the bank is told. */
function creditActivities({ backends: { coreBanking }, log, asking }: Payee) {
  return {
    /**
     * POST /transfers to the backend, which credits the payee (once per transferId, whatever the retries). The bank
     * may answer RESERVED: it holds the credit until the switch's final state (PATCH /transfers/{ID}) reaches it, and
     * the payee answers RESERVED too, as the SDK does; any other answer (or none) is COMMITTED.
     */
    async creditPayee(
      transfer: TransfersPostRequest,
      transaction: TransactionObject,
    ): Promise<PayeeOutcome<{ homeTransactionId: string; completedTimestamp: string; transferState: 'RESERVED' | 'COMMITTED' }>> {
      const credited = await asking(`transfer ${transfer.transferId}`, () => coreBanking.transfer(backendTransferOf(transfer, transaction)));
      if (!credited.ok) return credited;
      return {
        ok: true,
        body: {
          homeTransactionId: credited.body.homeTransactionId,
          completedTimestamp: credited.body.completedTimestamp ?? new Date().toISOString(),
          transferState: credited.body.transferState === 'RESERVED' ? 'RESERVED' : 'COMMITTED',
        },
      };
    },

    /** PUT /transfers/{transferId} to the backend: the final state the switch notified, as the SDK passes it on. */
    async notifyFinalState(transferId: string, notification: BackendTransferNotification): Promise<void> {
      const sent = await asking(`the notification of transfer ${transferId}`, () => coreBanking.transferNotification(transferId, notification));
      if (!sent.ok) log.warn({ transferId, errorInformation: sent.errorInformation }, 'the backend refused a final notification');
    },
  };
}

export type FspiopActivities = ReturnType<typeof createFspiopActivities>;
