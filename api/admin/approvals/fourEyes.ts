import type { Client } from '@temporalio/client';
import type Router from '@koa/router';
import type { Context } from 'koa';
import type { Approvals } from '../../../activities/hub/approvals/approvals';
import type { ActionAnswer } from '../../../activities/shared/contracts/approvals';
import { workflowIds } from '../../../activities/shared/contracts/conversations';
import { isChangeGroup, type ChangeGroup, type Permission } from '../../../activities/shared/contracts/operatorRoles';
import { approval } from '../../../workflows/hub/approval';
import { adminCaller } from '../access/authentication';
import { notAllowed } from '../access/permissions';

/** What holds changes for a second person: the groups held (ADMIN_FOUR_EYES), for how long, where, and on what. */
export interface FourEyesSettings {
  groups: ChangeGroup[];
  ttlMs: number;
  approvals: Approvals;
  temporal: { client: Client; taskQueue: string };
}

/** The answer a held request gets: nothing changed yet. */
export interface Held {
  approvalId: string;
  state: 'PENDING';
}

type Actions = Record<string, (input: never) => Promise<ActionAnswer>>;

/** Performs a named change of `actions` for a request, or holds it, and answers the request either way. */
export type Change<A extends Actions> = <N extends keyof A & string>(ctx: Context, name: N, input: Parameters<A[N]>[0]) => Promise<void>;

/** What a group of routes that change things is declared with: its router, the services it reads, and how a change is made. */
export interface ChangingRoutes<Services, A extends Actions> {
  router: Router;
  services: Services;
  change: Change<A>;
}

/** Declares each group of routes on the one router they share, in order (a more general path after a narrower one). */
export function declaredGroups<R extends ChangingRoutes<unknown, never>>(routes: R, ...groups: ((routes: R) => void)[]): Router {
  for (const group of groups) group(routes);
  return routes.router;
}

/**
 * Holds a request for a second person: records it (so GET /approvals shows it at once) and starts its workflow,
 * which waits for the decision. Four eyes compares names, so a caller whose credential names no one (a bare token, an
 * open admin API, a certificate without a common name) cannot ask for a held change.
 */
async function hold(ctx: Context, settings: FourEyesSettings, changeGroup: ChangeGroup, action: string, input: unknown): Promise<Held> {
  const caller = adminCaller(ctx);
  if (!caller?.name) throw notAllowed(ctx, `Forbidden: ${changeGroup} changes need a second person, and this credential names no one`);
  const requestedBy = { name: caller.name, credential: caller.credential };
  const summary = `${ctx.method} ${ctx.path}`;
  const { approvalId, created } = await settings.approvals.hold({ action, input, changeGroup, summary }, requestedBy, settings.ttlMs);
  if (created) {
    const { client, taskQueue } = settings.temporal;
    try {
      await client.workflow.start(approval, {
        workflowId: workflowIds.approval(approvalId),
        taskQueue,
        args: [{ approvalId, changeGroup, requestedBy, ttlMs: settings.ttlMs }],
      });
    } catch (error) {
      await settings.approvals.release(approvalId);
      throw error;
    }
  }
  return { approvalId, state: 'PENDING' };
}

/**
 * How a change route ends: the change its route declared (`needs(group)`) held for a second person when ADMIN_FOUR_EYES
 * names that group (202 with the approval), or else performed at once and answered as central-ledger answers.
 */
export function changes<A extends Actions>(actions: A, fourEyes?: FourEyesSettings): Change<A> {
  return async (ctx, name, input) => {
    const group = ctx.state.permission as Permission;
    if (fourEyes && isChangeGroup(group) && fourEyes.groups.includes(group)) {
      ctx.status = 202;
      ctx.body = await hold(ctx, fourEyes, group, name, input);
      return;
    }
    const { status, body } = await actions[name](input as never);
    // The body first: Koa would turn a status set before a null body into 204.
    ctx.body = body;
    ctx.status = status;
  };
}
