import Router from '@koa/router';
import type Koa from 'koa';
import type { Logger } from 'pino';
import type { AdminAccessConfig } from '../../activities/platform/config';
import { createGateway } from '../http/gateway';
import { HttpError } from '../http/httpError';
import { healthAnswer, metricsAnswer, type Health } from '../http/observability';
import { IdentityProvider } from './access/accessTokens';
import { adminAuthentication } from './access/authentication';
import { declaredRoutes, needs, openRoutes } from './access/permissions';
import { allowedHosts, jsonBodies, sameOrigin, securityHeaders } from './browserProtections';
import { AdminServices, participantRoutes, settlementModelRoutes, transactionRoutes } from './adminRoutes';
import { signatureRoutes } from './signatures';
import { traceRoutes } from './traceRoutes';
import { glanceRoutes } from './glanceRoutes';
import { consoleRoutes, type ConsoleSettings } from '../console/consoleRoutes';
import { signInRoutes } from '../console/signInRoutes';
import { settlementRoutes, type SettlementApi } from '../settlement/settlementRoutes';

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
  services: AdminServices,
  health: Health,
  settlement?: SettlementApi,
  consoleSettings?: ConsoleSettings,
  identityProvider?: IdentityProvider,
): Router[] {
  return [
    participantRoutes(services),
    signatureRoutes(services),
    settlementModelRoutes(services),
    transactionRoutes(services),
    traceRoutes(services),
    glanceRoutes(services),
    consoleRoutes(consoleSettings ?? { namespace: 'default', hub: 'Hub' }),
    signInRoutes(identityProvider),
    observabilityRoutes(health),
    ...(settlement ? [observabilityRoutes(health, '/v2'), settlementRoutes(settlement)] : []),
  ];
}

/**
 * The admin gateway. Only GET, POST and PUT exist here: any other method is 405, an unknown path 404 (3002), both
 * with ErrorInformation. Before anything else, what a browser needs to keep other sites' pages out
 * (browserProtections.ts); then a caller must show a credential (401, 403) unless the route is open, and its role
 * must allow what the route declares (403); a POST or PUT must then be JSON (415).
 */
export function createAdminApp(
  services: AdminServices,
  log: Logger,
  health: Health,
  access: AdminAccessConfig = { tokens: [] },
  settlement?: SettlementApi,
  consoleSettings?: ConsoleSettings,
): Koa {
  // The scheme's identity provider (OIDC_*), one for the process: its discovery and keys are fetched once, not per request.
  const identityProvider = access.oidc && new IdentityProvider(access.oidc, log);
  const routers = adminRouters(services, health, settlement, consoleSettings, identityProvider);
  declaredRoutes(routers);
  return createGateway('admin', log, routers, {
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
    ],
  });
}
