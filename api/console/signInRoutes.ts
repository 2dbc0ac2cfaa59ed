import Router from '@koa/router';
import type { IdentityProvider } from '../admin/access/accessTokens';
import { adminCaller } from '../admin/access/authentication';
import { needs } from '../admin/access/permissions';
import type { SignInSettings } from '../../activities/shared/contracts/signIn';

/**
 * The console's sign-in: `GET /console/signIn/settings`, open, for the page to know where people sign in before it has
 * any credential (an empty object when the hub has no identity provider, or no client for the console there); and
 * `POST /console/signIn`, which the page calls once it holds a credential, to learn who the hub takes it for (name,
 * roles, kind of credential). A POST, so that the audit trail records each sign-in.
 */
export function signInRoutes(identityProvider?: IdentityProvider): Router {
  const router = new Router();
  router.get('/console/signIn/settings', needs('open'), async (ctx) => {
    const config = identityProvider?.config;
    if (!identityProvider || !config?.clientId) {
      ctx.body = {} satisfies SignInSettings;
      return;
    }
    const metadata = await identityProvider.discover();
    ctx.set('Cache-Control', 'no-store');
    ctx.body = {
      identityProvider: {
        name: config.providerName,
        issuer: config.issuer,
        clientId: config.clientId,
        authorizationEndpoint: metadata.authorization_endpoint,
        tokenEndpoint: metadata.token_endpoint,
        endSessionEndpoint: metadata.end_session_endpoint,
        scope: config.scopes.join(' '),
        resource: config.resource,
      },
    } satisfies SignInSettings;
  });
  router.post('/console/signIn', needs('read'), (ctx) => {
    const caller = adminCaller(ctx)!;
    ctx.set('Cache-Control', 'no-store');
    ctx.body = { name: caller.name, roles: caller.roles, credential: caller.credential };
  });
  return router;
}
