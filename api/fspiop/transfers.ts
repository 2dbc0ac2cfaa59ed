import Router from '@koa/router';
import { TransferFollowUp } from '../../activities/transferFollowUp';
import { Transfers } from '../../activities/transfers';
import type { ErrorInformationObject, TransfersIDPutResponse, TransfersPostRequest } from '../../workflows/fspiopTypes';
import { Currency, PayeeFsp, PayerFsp, State } from '../../workflows/searchAttributes';
import { fulfilSignal, rejectSignal, repeatedTransferSignal, transfer } from '../../workflows/transfer';
import { readJsonBody } from '../http/body';
import { HttpError } from '../http/httpError';
import type { ResourceRoutes } from './app';
import { requestHash, signalIfRunning, startOrRepeat } from './conversations';
import { FspiopRequest, fspiopHeaders } from './headers';
import { accepted, inBackground, ok } from './replies';
import { pathId, validateFspiop } from './schemas';

/** How far ahead of the hub's clock a participant's clock may run (ml-api-adapter's default callback time lag). */
const CLOCK_SKEW_MS = 200;

export const transferWorkflowId = (transferId: string) => `transfer/${transferId}`;

/**
 * /transfers: POST starts the transfer workflow (or repeats into it), PUT and PUT …/error from the payee
 * are signals to it; GET and anything arriving after the workflow ended are answered from the record.
 */
export const transfersRoutes: ResourceRoutes = ({ config, services, sender, temporal, directory, log }) => {
  const followUp = new TransferFollowUp(new Transfers(services), services.funds, sender, log);
  const router = new Router({ prefix: '/transfers' });
  router.use(fspiopHeaders('transfers', (fsp) => directory.unavailable(fsp)));
  // Every {ID} names a conversation: a CorrelationId, checked before any handler uses it.
  router.param('id', (id, _ctx, next) => {
    pathId(id);
    return next();
  });

  router.post('/', async (ctx) => {
    const fspiop: FspiopRequest = ctx.state.fspiop;
    const { body: parsed, text } = await readJsonBody(ctx);
    const body = validateFspiop<TransfersPostRequest>('TransfersPostRequest', parsed);
    const hash = requestHash(body);
    const outcome = await startOrRepeat(
      temporal,
      transfer,
      {
        workflowId: transferWorkflowId(body.transferId),
        taskQueue: config.taskQueue,
        args: [{ body, rawBody: text, headers: fspiop.headers, requestHash: hash, version: fspiop.version }],
        typedSearchAttributes: [
          { key: PayerFsp, value: body.payerFsp },
          { key: PayeeFsp, value: body.payeeFsp },
          { key: Currency, value: body.amount.currency },
          { key: State, value: 'RECEIVED' },
        ],
        staticSummary: `Transfer ${body.amount.amount} ${body.amount.currency} from ${body.payerFsp} to ${body.payeeFsp}`,
      },
      repeatedTransferSignal,
      { requestHash: hash, headers: fspiop.headers },
    );
    if (outcome === 'finished') inBackground(followUp.repeated(body.transferId, hash, fspiop.source, fspiop.version), log, 'repeated transfer');
    accepted(ctx);
  });

  router.get('/:id', async (ctx) => {
    const fspiop: FspiopRequest = ctx.state.fspiop;
    inBackground(followUp.status(ctx.params.id, fspiop.source, fspiop.version), log, 'transfer status');
    accepted(ctx);
  });

  router.put('/:id', async (ctx) => {
    const fspiop: FspiopRequest = ctx.state.fspiop;
    const { body: parsed, text } = await readJsonBody(ctx);
    const body = validateFspiop<TransfersIDPutResponse>('TransfersIDPutResponse', parsed);
    // Document 2: ABORTED is not a valid state in this callback (the payee uses PUT …/error); RECEIVED means nothing here.
    if (body.transferState !== 'COMMITTED' && body.transferState !== 'RESERVED') {
      throw new HttpError(
        400,
        'validationError',
        `transferState ${body.transferState} is not valid in PUT /transfers/{ID}; reject with PUT /transfers/{ID}/error`,
      );
    }
    // A fulfil from the future is refused at once, as by Mojaloop's hub. A missing fulfilment is not: as in
    // central-ledger, the transfer is aborted and both sides are told (3100), in the workflow.
    if (body.completedTimestamp && Date.parse(body.completedTimestamp) > Date.now() + CLOCK_SKEW_MS) {
      throw new HttpError(400, 'validationError', `completedTimestamp fails because future timestamp was provided`);
    }
    // The PATCH that answers RESERVED exists only from transfers v1.1. Like central-ledger, a v1.0 RESERVED is
    // dropped: the payee gets no notification it could not read, and the transfer expires (3303 to both sides).
    if (fspiop.version === '1.0' && body.transferState === 'RESERVED') {
      log.info({ transferId: ctx.params.id, from: fspiop.source }, 'RESERVED in a v1.0 fulfil ignored; the transfer will expire');
      return ok(ctx);
    }
    const callback = { headers: fspiop.headers, body, rawBody: text };
    if (!(await signalIfRunning(temporal, transferWorkflowId(ctx.params.id), fulfilSignal, callback))) {
      inBackground(followUp.lateFulfil(ctx.params.id, callback, fspiop.version), log, 'late fulfil');
    }
    ok(ctx);
  });

  router.put('/:id/error', async (ctx) => {
    const fspiop: FspiopRequest = ctx.state.fspiop;
    const { body: parsed, text } = await readJsonBody(ctx);
    const body = validateFspiop<ErrorInformationObject>('ErrorInformationObject', parsed);
    if (!(await signalIfRunning(temporal, transferWorkflowId(ctx.params.id), rejectSignal, { headers: fspiop.headers, body, rawBody: text }))) {
      log.info({ transferId: ctx.params.id, from: fspiop.source }, 'error callback for a transfer that is already decided');
    }
    ok(ctx);
  });

  return router;
};
