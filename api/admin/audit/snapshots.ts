import type { Middleware } from 'koa';
import type { HubServices } from '../../../activities/hub/hubServices';
import { callerMay } from '../../contracts/operatorRoles';
import { adminCaller } from '../access/authentication';
import type { RouteOf } from './routeOf';

type SnapshotServices = Pick<HubServices, 'participants' | 'limits' | 'settlementModels' | 'signatures'>;
type Reader = (services: SnapshotServices, params: Record<string, string>) => Promise<unknown>;

const limitsOf: Reader = async ({ limits }, { name }) => (await limits.forParticipant(name, {})).map(({ currency, limit }) => ({ currency, ...limit }));

/**
 * What a change touched, read the same way before the route's handler and after it, for the changes where the values
 * matter to whoever reads the trail later: activation of participants, accounts and settlement models, endpoints,
 * limits (and the initial position), signature keys. Keyed by method and route template, so the routes stay as they are.
 */
const READERS: Record<string, Reader> = {
  'PUT /participants/:name': async ({ participants }, { name }) => ({ isActive: (await participants.get(name)).participant.isActive }),
  'PUT /participants/:name/accounts/:id': async ({ participants }, { name, id }) => {
    const account = (await participants.accounts(name)).find((candidate) => String(candidate.id) === id);
    return account && { currency: account.currency, ledgerAccountType: account.ledgerAccountType, isActive: account.isActive };
  },
  'POST /participants/:name/endpoints': async ({ participants }, { name }) => (await participants.endpoints(name)).map(({ type, value }) => ({ type, value })),
  'PUT /participants/:name/limits': limitsOf,
  'POST /participants/:name/initialPositionAndLimits': async (services, params) => ({
    limits: await limitsOf(services, params),
    positions: (await services.limits.positions(params.name)).map(({ currency, value }) => ({ currency, value })),
  }),
  'PUT /participants/:name/jws': ({ signatures }, { name }) => signatures.settingsOf(name),
  'PUT /settlementModels/:name': async ({ settlementModels }, { name }) => ({ isActive: (await settlementModels.get(name)).isActive }),
};

/** What is there now; nothing where there is nothing to read (a participant that does not exist: the change will fail). */
const read = (reader: Reader, services: SnapshotServices, params: Record<string, string>) => reader(services, params).catch(() => undefined);

/**
 * Runs last before the routers, for a caller whose roles allow the route (no read is spent on a refused attempt), and
 * leaves in ctx.state.auditSnapshot what the recorder (recorder.ts) writes down: the state before, and after it if the
 * change was answered as done or held.
 */
export function auditSnapshots(services: SnapshotServices, routeOf: RouteOf): Middleware {
  return async (ctx, next) => {
    if (ctx.method === 'GET' || ctx.method === 'HEAD' || ctx.method === 'OPTIONS') return next();
    const route = routeOf(ctx.method, ctx.path);
    const reader = route && READERS[`${ctx.method} ${route.template}`];
    const caller = adminCaller(ctx);
    if (!reader || !caller || !route.permission || !callerMay(caller, route.permission)) return next();
    const before = await read(reader, services, route.params);
    ctx.state.auditSnapshot = { before };
    await next();
    if (ctx.status < 400) ctx.state.auditSnapshot = { before, after: await read(reader, services, route.params) };
  };
}
