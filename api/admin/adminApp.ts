import type Koa from 'koa';
import type { Logger } from 'pino';
import type { AdminAccessConfig } from '../../activities/platform/config';
import { createGateway } from '../http/gateway';
import { HttpError } from '../http/httpError';
import { observabilityRoutes, Health } from '../http/observability';
import { adminAuthentication } from './authentication';
import { adminScopes } from './scopes';
import { allowedHosts, jsonBodies, sameOrigin, securityHeaders } from './browserProtections';
import { AdminServices, participantRoutes, settlementModelRoutes, transactionRoutes } from './adminRoutes';
import { signatureRoutes } from './signatures';
import { traceRoutes } from './traceRoutes';
import { consoleRoutes, isConsoleAsset, type ConsoleSettings } from '../console/consoleRoutes';
import { settlementRoutes, type SettlementApi } from '../settlement/settlementRoutes';

/**
 * The hub administration API (Document 3) with central-ledger's bodies, and with `settlement` Mojaloop's settlement
 * API (central-settlement's) under /v2, behind the same authentication; the operator's console (/console) over both. Only GET, POST and PUT exist
 * here: any other method is 405, an unknown path 404 (3002), both with ErrorInformation. Before anything else, what
 * a browser needs to keep other sites' pages out (browserProtections.ts); then, with credentials in `access`, a caller
 * must show one (401, 403) whose scope allows what it asks; a POST or PUT must then be JSON (415).
 */
export function createAdminApp(
  services: AdminServices,
  log: Logger,
  health: Health,
  access: AdminAccessConfig = { tokens: [] },
  settlement?: SettlementApi,
  consoleSettings: ConsoleSettings = { namespace: 'default', hub: 'Hub' },
): Koa {
  const authenticate = adminAuthentication(access, isConsoleAsset);
  const routers = [
    participantRoutes(services),
    signatureRoutes(services),
    settlementModelRoutes(services),
    transactionRoutes(services),
    traceRoutes(services),
    consoleRoutes(consoleSettings),
    observabilityRoutes(health),
    ...(settlement ? [settlementRoutes(settlement, health)] : []),
  ];
  return createGateway('admin', log, routers, {
    guards: [
      securityHeaders(),
      allowedHosts(access.allowedHosts ?? []),
      sameOrigin(access.allowedOrigins ?? []),
      ...(authenticate ? [authenticate, adminScopes()] : []),
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
