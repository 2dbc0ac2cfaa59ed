import type { BulkQuotesPostRequest } from '../../activities/shared/contracts/bodies';
import { bulkQuote, payeeOfBulkQuote } from '../../workflows/hub/bulkQuote';
import { quotingRoutes } from './quotingRoutes';

/**
 * /bulkQuotes: POST (1 to 1,000 individual quotes, as the schema enforces) starts the bulk quote workflow; the
 * payee's PUT and PUT …/error are signals to it.
 */
export const bulkQuotesRoutes = quotingRoutes<BulkQuotesPostRequest>({
  resource: 'bulkQuotes',
  schemas: { request: 'BulkQuotesPostRequest', answer: 'BulkQuotesIDPutResponse' },
  workflow: bulkQuote,
  describe: (body, fspiop) => {
    const payeeFsp = payeeOfBulkQuote(body, fspiop.destination);
    const { length } = body.individualQuotes;
    // Labelled by the first individual quote's currency, the one Mojaloop's quoting service checks accounts in.
    const { currency } = body.individualQuotes[0].amount;
    return { id: body.bulkQuoteId, payeeFsp, currency, summary: `Bulk quote of ${length} individual quotes from ${fspiop.source} to ${payeeFsp}` };
  },
});
