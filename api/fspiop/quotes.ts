import Router from '@koa/router';
import { QuoteFollowUp } from '../../activities/quoteFollowUp';
import { Quotes } from '../../activities/quotes';
import type { ErrorInformationObject, QuotesIDPutResponse, QuotesPostRequest } from '../../workflows/fspiopTypes';
import { quote, quoteResponseSignal, QuoteResponse, repeatedQuoteSignal } from '../../workflows/quote';
import { Currency, PayeeFsp, PayerFsp, State } from '../../workflows/searchAttributes';
import { readJsonBody } from '../http/body';
import type { ResourceRoutes } from './app';
import { requestHash, signalIfRunning, startOrRepeat } from './conversations';
import { FspiopRequest, fspiopHeaders } from './headers';
import { accepted, inBackground, ok } from './replies';
import { pathId, validateFspiop } from './schemas';

export const quoteWorkflowId = (quoteId: string) => `quote/${quoteId}`;

/** /quotes: POST starts the quote workflow; the payee's PUT and PUT …/error are signals to it. */
export const quotesRoutes: ResourceRoutes = ({ config, services, sender, temporal, directory, log }) => {
  const followUp = new QuoteFollowUp(new Quotes(services), sender, log);
  const router = new Router({ prefix: '/quotes' });
  router.use(fspiopHeaders('quotes', (fsp) => directory.unavailable(fsp)));
  // Every {ID} names a conversation: a CorrelationId, checked before any handler uses it.
  router.param('id', (id, _ctx, next) => {
    pathId(id);
    return next();
  });

  router.post('/', async (ctx) => {
    const fspiop: FspiopRequest = ctx.state.fspiop;
    const { body: parsed, text } = await readJsonBody(ctx);
    const body = validateFspiop<QuotesPostRequest>('QuotesPostRequest', parsed);
    const hash = requestHash(body);
    const outcome = await startOrRepeat(
      temporal,
      quote,
      {
        workflowId: quoteWorkflowId(body.quoteId),
        taskQueue: config.taskQueue,
        args: [{ body, rawBody: text, headers: fspiop.headers, requestHash: hash, version: fspiop.version }],
        typedSearchAttributes: [
          { key: PayerFsp, value: fspiop.source },
          { key: PayeeFsp, value: fspiop.destination ?? body.payee.partyIdInfo.fspId ?? '' },
          { key: Currency, value: body.amount.currency },
          { key: State, value: 'PENDING' },
        ],
        staticSummary: `Quote ${body.amountType} ${body.amount.amount} ${body.amount.currency} from ${fspiop.source} to ${fspiop.destination ?? body.payee.partyIdInfo.fspId}`,
      },
      repeatedQuoteSignal,
      { requestHash: hash, headers: fspiop.headers },
    );
    if (outcome === 'finished') inBackground(followUp.repeated(body.quoteId, hash, fspiop.source, fspiop.version), log, 'repeated quote');
    accepted(ctx);
  });

  router.get('/:id', async (ctx) => {
    inBackground(followUp.get(ctx.params.id, ctx.state.fspiop), log, 'quote GET');
    accepted(ctx);
  });

  const callback =
    (isError: boolean): Router.Middleware =>
    async (ctx) => {
      const fspiop: FspiopRequest = ctx.state.fspiop;
      const { body, text } = await readJsonBody(ctx);
      const received = { headers: fspiop.headers, body, rawBody: text };
      const response: QuoteResponse = isError
        ? { kind: 'error', callback: { ...received, body: validateFspiop<ErrorInformationObject>('ErrorInformationObject', body) } }
        : { kind: 'quote', callback: { ...received, body: validateFspiop<QuotesIDPutResponse>('QuotesIDPutResponse', body) } };
      if (!(await signalIfRunning(temporal, quoteWorkflowId(ctx.params.id), quoteResponseSignal, response))) {
        inBackground(followUp.route(ctx.params.id, isError, received), log, 'quote callback');
      }
      ok(ctx);
    };
  router.put('/:id', callback(false));
  router.put('/:id/error', callback(true));

  return router;
};
