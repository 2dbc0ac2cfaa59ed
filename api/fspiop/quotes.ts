import type { ErrorInformationObject, QuotesIDPutResponse, QuotesPostRequest } from '../contracts/bodies';
import { workflowIds } from '../contracts/conversations';
import { Currency, PayeeFsp, PayerFsp, State } from '../contracts/searchAttributes';
import { quote, quoteResponseSignal, QuoteResponse, repeatedQuoteSignal } from '../../workflows/hub/quote';
import { conversationRoutes } from './conversationRoutes';

/** /quotes: POST starts the quote workflow; the payee's PUT and PUT …/error are signals to it. */
export const quotesRoutes = conversationRoutes<QuotesPostRequest, QuotesIDPutResponse, ErrorInformationObject>({
  resource: 'quotes',
  post: {
    schema: 'QuotesPostRequest',
    workflow: quote,
    repeatSignal: repeatedQuoteSignal,
    start: (body, fspiop) => {
      const payee = fspiop.destination ?? body.payee.partyIdInfo.fspId;
      return {
        id: body.quoteId,
        workflowId: workflowIds.quote(body.quoteId),
        searchAttributes: [
          { key: PayerFsp, value: fspiop.source },
          { key: PayeeFsp, value: payee ?? '' },
          { key: Currency, value: body.amount.currency },
          { key: State, value: 'PENDING' },
        ],
        summary: `Quote ${body.amountType} ${body.amount.amount} ${body.amount.currency} from ${fspiop.source} to ${payee}`,
      };
    },
    repeatedAfterEnd: (quoteId, requestHash, requester) => ({ kind: 'repeatedQuote', quoteId, requestHash, requester }),
  },
  get: (quoteId, requester) => ({ kind: 'quoteGet', quoteId, requester }),
  answer: {
    schema: 'QuotesIDPutResponse',
    workflowId: workflowIds.quote,
    signal: quoteResponseSignal,
    signalArgument: (callback): QuoteResponse => ({ kind: 'quote', callback }),
    orphan: (quoteId, callback) => ({ kind: 'quoteCallback', quoteId, isError: false, callback }),
  },
  error: {
    schema: 'ErrorInformationObject',
    workflowId: workflowIds.quote,
    signal: quoteResponseSignal,
    signalArgument: (callback): QuoteResponse => ({ kind: 'error', callback }),
    orphan: (quoteId, callback) => ({ kind: 'quoteCallback', quoteId, isError: true, callback }),
  },
});
