import Router from '@koa/router';
import { ApplicationFailure, WorkflowNotFoundError, WorkflowUpdateFailedError } from '@temporalio/client';
import type { Context } from 'koa';
import type { Approvals } from '../../../activities/hub/approvals/approvals';
import { APPROVAL_REASON_LENGTH } from '../../../activities/hub/db/approvalEntities';
import {
  APPROVAL_REFUSED,
  APPROVAL_STATES,
  type ApprovalDecision,
  type ApprovalState,
  type ApprovalView,
} from '../../../activities/shared/contracts/approvals';
import { workflowIds } from '../../../activities/shared/contracts/conversations';
import type { ErrorInformation } from '../../../activities/shared/contracts/errors';
import { callerMay } from '../../../activities/shared/contracts/operatorRoles';
import { readJsonBody } from '../../http/body';
import { HttpError } from '../../../activities/shared/platform/httpError';
import { decide } from '../../../workflows/hub/approval';
import { adminCaller } from '../access/authentication';
import { INSUFFICIENT_ROLE, needs, notAllowed } from '../access/permissions';
import type { FourEyesSettings } from './fourEyes';

/** The body of PUT /approvals/{id}: `decision`, APPROVED or REJECTED, and an optional `reason`. */
function decisionOf(body: unknown): { decision: ApprovalDecision; reason?: string } {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw new HttpError(400, 'malformedSyntax', 'body must be an object');
  const { decision, reason, ...others } = body as Record<string, unknown>;
  const other = Object.keys(others)[0];
  if (other !== undefined) throw new HttpError(400, 'tooManyElements', `body must NOT have additional property '${other}'`);
  if (decision !== 'APPROVED' && decision !== 'REJECTED') throw new HttpError(400, 'malformedSyntax', 'body.decision must be APPROVED or REJECTED');
  if (reason !== undefined && typeof reason !== 'string') throw new HttpError(400, 'malformedSyntax', 'body.reason must be a string');
  if (reason !== undefined && reason.length > APPROVAL_REASON_LENGTH) {
    throw new HttpError(400, 'validationError', `body.reason is longer than ${APPROVAL_REASON_LENGTH} characters`);
  }
  return { decision, ...(reason !== undefined && { reason }) };
}

/** The approval's workflow refused the decision (ApprovalRefused: 403 for who, 400 for when), or had ended, as the gateway answers it. */
function refusalOf(ctx: Context, error: unknown, approvalId: string): HttpError | undefined {
  // Its workflow ended (expired) after the record was read PENDING.
  if (error instanceof WorkflowNotFoundError) return new HttpError(400, 'validationError', `approval ${approvalId} is no longer pending`);
  const cause = error instanceof WorkflowUpdateFailedError ? error.cause : undefined;
  if (!(cause instanceof ApplicationFailure) || cause.type !== APPROVAL_REFUSED) return undefined;
  const { status, errorInformation } = cause.details?.[0] as { status: number; errorInformation: ErrorInformation };
  if (status === 403) ctx.set('WWW-Authenticate', INSUFFICIENT_ROLE);
  return new HttpError(status, 'clientError', undefined, errorInformation);
}

/**
 * Four eyes (docs/security.md): the changes held for a second person, read by anyone who may read the scheme, and
 * decided by someone else whose roles allow both deciding and that kind of change. The decision goes to the
 * approval's workflow, which checks it again (whoever reaches Temporal is held to the same rule) and answers once the
 * change is performed.
 */
export function approvalRoutes(approvals: Approvals, temporal: FourEyesSettings['temporal']): Router {
  const router = new Router();

  const approvalOf = async (ctx: Context): Promise<ApprovalView> => {
    const view = await approvals.get(ctx.params.id);
    if (!view) throw new HttpError(404, 'idNotFound', `approval ${ctx.params.id.slice(0, 64)} is not known`);
    return view;
  };

  router.get('/approvals', needs('read'), async (ctx) => {
    const state = ctx.query.state;
    if (state !== undefined && !APPROVAL_STATES.includes(state as ApprovalState)) {
      throw new HttpError(400, 'malformedSyntax', `state is one of ${APPROVAL_STATES.join(', ')}`);
    }
    ctx.body = await approvals.list(state as ApprovalState | undefined);
  });

  router.get('/approvals/:id', needs('read'), async (ctx) => {
    ctx.body = await approvalOf(ctx);
  });

  router.put('/approvals/:id', needs('decide'), async (ctx) => {
    const { decision, reason } = decisionOf((await readJsonBody(ctx)).body);
    const caller = adminCaller(ctx)!;
    const held = await approvalOf(ctx);
    // Refused here before Temporal is asked, with the words a person can act on; the workflow checks the same again.
    if (!caller.name) throw notAllowed(ctx, 'Forbidden: four eyes needs to know who decides; this credential names no one');
    if (decision === 'APPROVED' && caller.name === held.requestedBy.name) {
      throw notAllowed(ctx, `Forbidden: ${caller.name} asked for this change and cannot approve it`);
    }
    if (!callerMay(caller, held.changeGroup)) {
      throw notAllowed(ctx, `Forbidden: ${caller.name}'s roles do not allow deciding on ${held.changeGroup} changes`);
    }
    if (held.state !== 'PENDING') throw new HttpError(400, 'validationError', `approval ${held.approvalId} is ${held.state}, no longer pending`);
    const handle = temporal.client.workflow.getHandle(workflowIds.approval(held.approvalId));
    try {
      ctx.body = await handle.executeUpdate(decide, {
        args: [{ decision, reason, decidedBy: { name: caller.name, credential: caller.credential, roles: caller.roles } }],
      });
    } catch (error) {
      throw refusalOf(ctx, error, held.approvalId) ?? error;
    }
  });

  return router;
}
