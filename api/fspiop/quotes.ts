import type { QuotesPostRequest } from '../../activities/shared/contracts/bodies';
import { payeeOfQuote, quote } from '../../workflows/hub/quote';
import { quotingRoutes } from './quotingRoutes';
import { workflowIds } from '../../activities/shared/contracts/conversations';

/** /quotes: POST starts the quote workflow; the payee's PUT and PUT …/error are signals to it. */
export const quotesRoutes = quotingRoutes<QuotesPostRequest>({
  resource: 'quotes',
  schemas: { request: 'QuotesPostRequest', answer: 'QuotesIDPutResponse' },
  workflow: quote,
  describe: (body, fspiop) => {
    const payeeFsp = payeeOfQuote(body, fspiop.destination);
    const { amount, currency } = body.amount;
    return { id: body.quoteId, payeeFsp, currency, summary: `Quote ${body.amountType} ${amount} ${currency} from ${fspiop.source} to ${payeeFsp}` };
  },
  // A payer DFSP quotes a PISP's third-party transaction request under its ID (Document 1, payment flow rule 4).
  partOf: (body, fspiop) =>
    body.transactionRequestId
      ? {
          workflowId: workflowIds.thirdpartyTransaction(body.transactionRequestId),
          message: {
            resource: 'quotes',
            message: 'request',
            id: body.quoteId,
            from: fspiop.source,
            ...(fspiop.destination ? { to: fspiop.destination } : {}),
            at: new Date().toISOString(),
            facts: {},
          },
        }
      : undefined,
});
