import Router from '@koa/router';
import type { SimulatedThirdpartyBackend } from '../../activities/dfsp/simulator/thirdpartySimulator';
import { HttpError } from '../../activities/shared/platform/httpError';

/**
 * What the simulated bank shows its users, so a demo or a manual run can play the user: their phone's messages (the
 * OTP of an OTP linking) and the bank's login page (a WEB linking's authUri), which authenticates the user at once
 * and sends them back to the PISP's callbackUri with the secret, as a bank's login would after a real sign-in.
 */
export function simulatorPages(backend: SimulatedThirdpartyBackend): Router {
  const router = new Router({ prefix: '/simulator' });
  router.get('/users/:userId/messages', (ctx) => {
    ctx.body = { messages: backend.otpsSentTo(ctx.params.userId).map(({ consentRequestId, secret }) => ({ consentRequestId, otp: secret })) };
  });
  router.get('/login', (ctx) => {
    const issued = backend.secretFor(String(ctx.query.consentRequestId ?? ''));
    if (!issued || issued.channel !== 'WEB' || !issued.callbackUri) throw new HttpError(404, 'idNotFound', 'no WEB login waits for this consentRequestId');
    const back = new URL(issued.callbackUri);
    back.searchParams.set('consentRequestId', issued.consentRequestId);
    back.searchParams.set('token', issued.secret);
    ctx.redirect(back.href);
  });
  return router;
}
