import type { Middleware } from 'koa';
import type { AdminScope } from '../../activities/platform/config';
import { HttpError } from '../http/httpError';
import { adminCaller } from './authentication';

interface ScopeRule {
  allows(method: string, urlPath: string): boolean;
  /** What the scope allows, as a refusal says it. */
  says: string;
}

const reading = (method: string) => method === 'GET' || method === 'HEAD';

/** What each scope may ask of the admin API (/health and the console's files are open to all, before any scope). */
const SCOPES: Record<AdminScope, ScopeRule> = {
  admin: { allows: () => true, says: 'everything' },
  // Prometheus' token sits in its scrape configuration, read by more people than may move money.
  metrics: { allows: (method, urlPath) => reading(method) && urlPath === '/metrics', says: 'GET /metrics only' },
};

/**
 * What an authenticated caller may do, by the scope of its credential: anything else is 403 (3000), the status
 * Document 3 gives a credential that will not do. Runs after adminAuthentication, which names the caller.
 */
export function adminScopes(): Middleware {
  return async (ctx, next) => {
    const caller = adminCaller(ctx);
    if (caller && !SCOPES[caller.scope].allows(ctx.method, ctx.path)) {
      const who = caller.name ? `the token ${caller.name}` : 'this credential';
      throw new HttpError(403, 'clientError', `Forbidden: ${who} has scope ${caller.scope}, which allows ${SCOPES[caller.scope].says}`);
    }
    await next();
  };
}
