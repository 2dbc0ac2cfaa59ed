import type Koa from 'koa';
import type { Middleware } from 'koa';
import Router from '@koa/router';
import type { Client } from '@temporalio/client';
import type { Logger } from 'pino';
import { loadConfig, type AuthServiceConfig, type HubConfig } from '../../activities/shared/platform/config';
import type { CallbackSender } from '../../activities/hub/delivery/callbacks';
import type { ParticipantDirectory } from '../../activities/hub/delivery/directory';
import type { HubServices } from '../../activities/hub/hubServices';
import { createGateway } from '../http/gateway';
import { HttpError } from '../../activities/shared/platform/httpError';
import { healthRoutes, Health } from '../http/observability';
import { errorMediaType, fspiopHeaders, Senders, UnknownSourceAnswer } from './headers';
import { participantCertificate } from './participantCertificate';
import { inboundMessageLog } from './messageLogging';
import type { MessageLog } from '../../activities/hub/trace/messageLog';
import { fspiopSignature } from './fspiopSignature';
import { LookupQueue } from './lookupQueue';
import { ParticipantShares } from './participantShares';
import { warmUpSchemas } from '../../activities/shared/contracts/schemas';
import { FSPIOP_RESOURCES, Resource, THIRDPARTY_RESOURCES } from '../../activities/shared/contracts/conversations';
import { speaksIso20022 } from '../../activities/shared/contracts/apiType';
import { iso20022Bodies } from './iso20022/iso20022Bodies';

export interface SwitchDependencies {
  /** Without `lookups` or `followUpShare` of its own (tests), the gateway bounds them as the defaults say. */
  config: Pick<HubConfig, 'taskQueue'> & Partial<Pick<HubConfig, 'lookups' | 'followUpShare' | 'apiType'>>;
  authService: AuthServiceConfig;
  services: HubServices;
  directory: ParticipantDirectory;
  sender: CallbackSender;
  temporal: Client;
  /**
   * `temporal` runs on the NativeConnection of a worker of `config.taskQueue` in this process (the one-process hub):
   * a conversation starts eagerly, its first workflow task handed back with the start instead of waiting for a poll.
   */
  eagerStart?: boolean;
  log: Logger;
  /** Where the messages participants send are logged for the operator's traces; none in some tests. */
  messageLog?: MessageLog;
}

/** Who may send through the switch: active participants other than the hub's own identities. */
export function sendersOf({ directory, sender, authService }: Pick<SwitchDependencies, 'directory' | 'sender' | 'authService'>): Senders {
  return {
    unavailable: (fsp) => directory.unavailable(fsp),
    ownIdentities: [sender.hubId, authService.participantId],
    heard: (fsp, version) => directory.heard(fsp, version),
  };
}

/**
 * What the routers of one gateway share beside its dependencies: the bound on the lookups it runs itself, and each
 * participant's share of the follow-ups it starts.
 */
export interface RouteDependencies extends SwitchDependencies {
  lookups: LookupQueue;
  followUpShares: ParticipantShares;
}

/**
 * The checks every message from a participant passes, in order, before its router reads it: the client certificate's
 * participant (with mutual TLS), the FSPIOP headers, then the end-to-end signature of the sender the headers name; in
 * ISO 20022 mode, last, its ISO 20022 body checked and read as FSPIOP.
 */
export function participantMessage(resource: Resource, deps: SwitchDependencies, unknownSource?: UnknownSourceAnswer): Middleware[] {
  const { apiType } = deps.config;
  const checks = [participantCertificate, fspiopHeaders(resource, sendersOf(deps), unknownSource, apiType), fspiopSignature(deps.services.signatures)];
  return speaksIso20022(apiType, resource) ? [...checks, iso20022Bodies(resource)] : checks;
}

/** A resource's router, mounted at its path prefix; it validates, acknowledges and hands over. */
export type ResourceRoutes = (deps: RouteDependencies) => Router;

/**
 * The FSPIOP switch gateway (Document 2). Requests are acknowledged 202 and callbacks 200 at once; the
 * work continues in workflows. Unknown paths are 404 (3002), services of the API the hub does not offer 501
 * (2002), methods a resource does not offer 405, and no bad input ever causes a 500. Errors carry the
 * resource's versioned media type. `/health` answers probes; the metrics are the admin gateway's alone.
 */
export function createSwitchApp(deps: SwitchDependencies, resources: ResourceRoutes[], health: Health): Koa {
  warmUpSchemas();
  const defaults = loadConfig({});
  const lookups = new LookupQueue(deps.config.lookups ?? defaults.lookups, deps.log);
  const followUpShares = new ParticipantShares(deps.config.followUpShare ?? defaults.followUpShare);
  const routers = resources.map((resource) => resource({ ...deps, lookups, followUpShares }));
  return createGateway('switch', deps.log, [...routers, healthRoutes(health)], {
    observe: deps.messageLog && inboundMessageLog(deps.messageLog),
    guards: [emptySegmentsUnknown],
    notOffered: (path) => NOT_OFFERED.includes(resourceOf(path)),
    errorMediaType: (ctx) => {
      const resource = resourceOf(ctx.path);
      return MEDIA_RESOURCES.includes(resource) ? errorMediaType(resource as Resource, ctx, deps.config.apiType) : undefined;
    },
  });
}

/**
 * A path with an empty segment (`PUT /transfers/`, an ID left out) names no resource, as Mojaloop's router finds: 404
 * Unknown URI, where the router here would take `/transfers/` for `/transfers` and answer 405.
 */
const emptySegmentsUnknown: Middleware = async (ctx, next) => {
  if (ctx.path.length > 1 && (ctx.path.endsWith('/') || ctx.path.includes('//'))) throw new HttpError(404, 'unknownUri', 'Not Found');
  await next();
};

/**
 * The resource a path addresses: its first segment (`/transfers/x` → `transfers`), or its first two below
 * `/thirdpartyRequests` (`thirdpartyRequests/transactions`).
 */
function resourceOf(path: string): string {
  const [, first = '', second] = path.split('/');
  return first === 'thirdpartyRequests' && second ? `${first}/${second}` : first;
}

/** Services of FSPIOP v2 this hub does not offer: a DFSP that calls one learns it is not implemented (501, 2002), not that the URI is wrong. */
const NOT_OFFERED = ['fxQuotes', 'fxTransfers'];

/** Resources whose messages carry a versioned media type. */
const MEDIA_RESOURCES: string[] = [...FSPIOP_RESOURCES, ...THIRDPARTY_RESOURCES, ...NOT_OFFERED];
