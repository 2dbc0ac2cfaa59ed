import crypto from 'node:crypto';
import Router from '@koa/router';
import { Client, WorkflowExecutionAlreadyStartedError, WorkflowHandle, WorkflowNotFoundError } from '@temporalio/client';
import type { Context } from 'koa';
import type { ConnectorConfig } from '../../activities/connector/connectorConfig';
import { participantWorkflowIds } from '../../activities/shared/contracts/peers';
import { CORRELATION_ID_PATTERN } from '../../activities/shared/contracts/schemas';
import { readJsonBody } from '../http/body';
import type { dfspTransfer, DfspTransferInput, OutboundTransferRequest, OutboundTransferResponse } from '../../workflows/dfsp/dfspTransfer';
import { transferStateQuery } from '../../workflows/dfsp/dfspTransfer';

/** The fields the outbound API's transferRequest requires, and where a missing one is reported. */
const REQUIRED = ['homeTransactionId', 'from', 'to', 'amountType', 'currency', 'amount', 'transactionType'] as const;
const PARTY_REQUIRED = ['idType', 'idValue'] as const;
const CORRELATION_ID = new RegExp(CORRELATION_ID_PATTERN);

/** An answer of the outbound API: its errorResponse ({ statusCode, message }) and what it adds. */
function answer(ctx: Context, status: number, body: unknown): void {
  ctx.status = status;
  ctx.body = body;
}

/** Why a transferRequest cannot be taken, or undefined. */
function problemWith(body: unknown): string | undefined {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return 'the body must be a transferRequest object';
  const request = body as Record<string, unknown>;
  const missing = REQUIRED.find((field) => request[field] === undefined || request[field] === '');
  if (missing) return `${missing} is required`;
  for (const side of ['from', 'to'] as const) {
    const party = request[side] as Record<string, unknown>;
    const absent = PARTY_REQUIRED.find((field) => typeof party?.[field] !== 'string');
    if (absent) return `${side}.${absent} is required`;
  }
  if (typeof request.amount !== 'string' || !/^([0]|([1-9][0-9]{0,17}))([.][0-9]{0,3}[1-9])?$/.test(request.amount)) return 'amount must be an FSPIOP Amount';
  if (request.amountType !== 'SEND' && request.amountType !== 'RECEIVE') return 'amountType must be SEND or RECEIVE';
  // The transferId names the transfer at the switch and its workflow here: a CorrelationId, as FSPIOP's.
  if (request.transferId !== undefined && !(typeof request.transferId === 'string' && CORRELATION_ID.test(request.transferId))) {
    return 'transferId must be a CorrelationId';
  }
  if (request.skipPartyLookup && typeof (request.to as Record<string, unknown>).fspId !== 'string') {
    return 'fspId of to party must be specific id when skipPartyLookup is truthy';
  }
  return undefined;
}

/**
 * The outbound answer to a transfer that ended: 200 with the transfer when COMPLETED, else the SDK's error answer
 * (its handleError): the status of the step that failed, the Mojaloop errorCode as statusCode, the transfer as
 * transferState.
 */
function ended(ctx: Context, transfer: OutboundTransferResponse): void {
  if (transfer.currentState === 'COMPLETED') return answer(ctx, 200, transfer);
  const lastError = transfer.lastError as (OutboundTransferResponse['lastError'] & { message?: string }) | undefined;
  const status = lastError?.httpStatusCode ?? 500;
  answer(ctx, status, {
    message: lastError?.message ?? 'Unspecified error',
    statusCode: lastError?.mojaloopError?.errorInformation?.errorCode ?? String(status),
    transferState: transfer,
  });
}

/**
 * The API the bank's own systems call: the sdk-scheme-adapter's outbound POST /transfers (party lookup, quote and
 * transfer, with AUTO_ACCEPT_PARTY and AUTO_ACCEPT_QUOTES) and GET /transfers/{transferId}. Each transfer is the
 * workflow dfspTransfer/<transferId>; the call answers when it ends, or after the time its three steps may take
 * with the SDK's 504 and the transfer as it stands (it goes on, and GET /transfers/{transferId} shows its end).
 * A transferId is used once: the same one again (a client retrying after a 504) is answered from the transfer it
 * names, running or ended, and never starts another (which would quote anew and meet the switch's 3106).
 */
export function dfspOutboundRouter(client: Client, config: ConnectorConfig): Router {
  const router = new Router();
  const callWaitMs = 3 * config.requestTimeoutMs + 5_000;

  router.post('/transfers', async (ctx) => {
    const { body } = await readJsonBody(ctx);
    const problem = problemWith(body);
    if (problem) return answer(ctx, 400, { statusCode: '3100', message: `Generic validation error - ${problem}` });
    const request = body as OutboundTransferRequest;
    // The SDK takes a transferId given with the request (a resubmission), else makes one.
    const transferId = request.transferId ?? crypto.randomUUID();
    const input: DfspTransferInput = { transferId, payerFsp: config.participantId, request, waitMs: config.requestTimeoutMs };
    const workflowId = participantWorkflowIds.dfspTransfer(transferId);
    let handle: WorkflowHandle<typeof dfspTransfer>;
    try {
      handle = await client.workflow.start<typeof dfspTransfer>('dfspTransfer', {
        workflowId,
        taskQueue: config.taskQueue,
        args: [input],
        workflowIdReusePolicy: 'REJECT_DUPLICATE',
      });
    } catch (error) {
      // The same transfer asked for again: it is answered as the first one ends, or ended.
      if (!(error instanceof WorkflowExecutionAlreadyStartedError)) throw error;
      handle = client.workflow.getHandle<typeof dfspTransfer>(workflowId);
    }
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<undefined>((resolve) => (timer = setTimeout(() => resolve(undefined), callWaitMs)));
    const transfer = await Promise.race([handle.result(), late]).finally(() => clearTimeout(timer));
    if (transfer) return ended(ctx, transfer);
    answer(ctx, 504, { message: `Timeout waiting for transfer ${transferId}`, statusCode: '504', transferState: await handle.query(transferStateQuery) });
  });

  router.get('/transfers/:transferId', async (ctx) => {
    const { transferId } = ctx.params;
    let transfer: OutboundTransferResponse;
    try {
      transfer = await client.workflow.getHandle(participantWorkflowIds.dfspTransfer(transferId)).query(transferStateQuery);
    } catch (error) {
      if (!(error instanceof WorkflowNotFoundError)) throw error;
      return answer(ctx, 404, { statusCode: '3208', message: `Transfer ID not found - ${transferId}` });
    }
    answer(ctx, 200, {
      transferId,
      currentState: transfer.currentState,
      ...(transfer.fulfil ? { fulfil: transfer.fulfil } : {}),
      lastError: transfer.lastError,
    });
  });

  return router;
}
