import Router from '@koa/router';
import type Koa from 'koa';
import type { Logger } from 'pino';
import type { AuditTrail } from '../../activities/hub/audit/auditTrail';
import type { Database } from '../../activities/hub/db/database';
import type { AdminAccessConfig } from '../../activities/shared/platform/config';
import { createGateway } from '../http/gateway';
import { HttpError } from '../../activities/shared/platform/httpError';
import { healthAnswer, metricsAnswer, type Health } from '../http/observability';
import { IdentityProvider } from './access/accessTokens';
import { adminAuthentication } from './access/authentication';
import { declaredRoutes, needs, openRoutes } from './access/permissions';
import { allowedHosts, jsonBodies, sameOrigin, securityHeaders } from './browserProtections';
import { AdminServices, participantRoutes, settlementModelRoutes, transactionRoutes } from './adminRoutes';
import { signatureRoutes } from './signatures';
import { traceRoutes } from './traceRoutes';
import { glanceRoutes } from './glanceRoutes';
import { ledgerRoutes } from './ledgerRoutes';
import { consoleRoutes, type ConsoleSettings } from '../console/consoleRoutes';
import { signInRoutes } from '../console/signInRoutes';
import { settlementRoutes, type SettlementApi } from '../settlement/settlementRoutes';
import { reportRoutes } from '../settlement/reportRoutes';
import { approvalRoutes } from './approvals/approvalRoutes';
import type { FourEyesSettings } from './approvals/fourEyes';
import { auditRecorder } from './audit/recorder';
import { auditRoutes } from './audit/auditRoutes';
import { auditSnapshots } from './audit/snapshots';
import { routeOf } from './audit/routeOf';

/**
 * The admin API's services, with the audit trail, which only a benchmark's baseline (test/bench/auditCost.ts) leaves
 * out, and the database whose ledger GET /ledger/invariants checks.
 */
export type AdminAppServices = AdminServices & { audit?: AuditTrail; db: Database };

/** `/health`, open to probes that carry no credential, and `/metrics` for Prometheus' scrape (under `prefix` too). */
function observabilityRoutes(health: Health, prefix?: string): Router {
  const router = new Router({ prefix });
  router.get('/health', needs('open'), healthAnswer(health));
  router.get('/metrics', needs('metrics'), metricsAnswer);
  return router;
}

/**
 * The admin API's routers, each route declaring what it needs (docs/security.md lists them): the hub administration
 * API (Document 3) with central-ledger's bodies, the operator's additions, the console (/console), and with
 * `settlement` Mojaloop's settlement API (central-settlement's) under /v2.
 */
export function adminRouters(
  services: AdminAppServices,
  health: Health,
  settlement?: SettlementApi,
  consoleSettings?: ConsoleSettings,
  identityProvider?: IdentityProvider,
  fourEyes?: FourEyesSettings,
): Router[] {
  return [
    participantRoutes(services, fourEyes),
    signatureRoutes(services, fourEyes),
    settlementModelRoutes(services, fourEyes),
    transactionRoutes(services),
    traceRoutes(services),
    auditRoutes(services),
    glanceRoutes(services),
    ledgerRoutes(services),
    reportRoutes(services.db),
    consoleRoutes(consoleSettings ?? { namespace: 'default', hub: 'Hub' }),
    signInRoutes(identityProvider),
    observabilityRoutes(health),
    ...(settlement
      ? [observabilityRoutes(health, '/v2'), settlementRoutes(settlement, fourEyes), approvalRoutes(services.approvals, settlement.temporal)]
      : []),
  ];
}

/** Four eyes as ADMIN_FOUR_EYES asks, held in Temporal (which the settlement API's wiring brings); none when it names nothing. */
function fourEyesOf(services: AdminServices, access: AdminAccessConfig, settlement?: SettlementApi): FourEyesSettings | undefined {
  const groups = access.fourEyes ?? [];
  if (groups.length === 0) return undefined;
  if (!settlement) throw new Error('ADMIN_FOUR_EYES holds changes in Temporal workflows: the admin gateway needs its Temporal client');
  return { groups, ttlMs: access.approvalTtlMs ?? DEFAULT_APPROVAL_TTL_MS, approvals: services.approvals, temporal: settlement.temporal };
}

const DEFAULT_APPROVAL_TTL_MS = 24 * 3_600_000;

/**
 * The admin gateway. Only GET, POST and PUT exist here: any other method is 405, an unknown path 404 (3002), both
 * with ErrorInformation. Before anything else, what a browser needs to keep other sites' pages out
 * (browserProtections.ts); then a caller must show a credential (401, 403) unless the route is open, and its role
 * must allow what the route declares (403); a POST or PUT must then be JSON (415). Around all of it, the audit trail
 * records every change and every refusal (api/admin/audit/recorder.ts), with the state a change touched, read last
 * before the routers (snapshots.ts).
 */
export function createAdminApp(
  services: AdminAppServices,
  log: Logger,
  health: Health,
  access: AdminAccessConfig = { tokens: [] },
  settlement?: SettlementApi,
  consoleSettings?: ConsoleSettings,
): Koa {
  // The scheme's identity provider (OIDC_*), one for the process: its discovery and keys are fetched once, not per request.
  const identityProvider = access.oidc && new IdentityProvider(access.oidc, log);
  const routers = adminRouters(services, health, settlement, consoleSettings, identityProvider, fourEyesOf(services, access, settlement));
  declaredRoutes(routers);
  const routes = routeOf(routers);
  return createGateway('admin', log, routers, {
    observe: services.audit && auditRecorder(services.audit, routes, log),
    guards: [
      securityHeaders(identityProvider),
      allowedHosts(access.allowedHosts ?? []),
      sameOrigin(access.allowedOrigins ?? []),
      adminAuthentication(access, openRoutes(routers), identityProvider),
      async (ctx, next) => {
        if (!['GET', 'POST', 'PUT', 'HEAD', 'OPTIONS'].includes(ctx.method)) {
          throw new HttpError(405, 'clientError', `Method ${ctx.method} is not supported`);
        }
        await next();
      },
      jsonBodies(),
      ...(services.audit ? [auditSnapshots(services, routes)] : []),
    ],
  });
}
