import { isIP } from 'node:net';
import type { Context, Middleware } from 'koa';
import { hostnameOf } from '../../activities/shared/platform/config';
import { HttpError } from '../../activities/shared/platform/httpError';

/*
 * The admin API is called by the operator's browser (the console) and by scripts; a page of any other site that the
 * operator opens can make the same browser send it requests, with the client certificate the browser holds, and on
 * loopback with no credential needed at all. These guards keep such pages out, one job each.
 */

/**
 * The console runs only its own scripts and styles (no inline ones), loads nothing from elsewhere, and no page may
 * frame it (clickjacking: an invisible console under another site's buttons). Sent on every answer, JSON included.
 */
const SECURITY_HEADERS = {
  'Content-Security-Policy': "default-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'",
  'X-Frame-Options': 'DENY',
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
};

/**
 * With an identity provider (OIDC_ISSUER), the console's page also fetches from the provider's origins (`connectTo`:
 * its token endpoint's, where it exchanges the code it comes back with): those, and nothing else, join `connect-src`.
 * A page (a document, the one thing a CSP governs) waits for the provider's discovery, which names the token endpoint;
 * a discovery that fails leaves the issuer's origin alone. Going to the provider to sign in is a navigation, which
 * `form-action` does not concern.
 */
export function securityHeaders(connectTo?: { browserOrigins(): string[]; discover(): Promise<unknown> }): Middleware {
  return async (ctx, next) => {
    ctx.set(SECURITY_HEADERS);
    if (connectTo) {
      if (ctx.get('Sec-Fetch-Dest') === 'document') await connectTo.discover().catch(() => undefined);
      const [first, ...rest] = SECURITY_HEADERS['Content-Security-Policy'].split('; ');
      ctx.set('Content-Security-Policy', [first, `connect-src 'self' ${connectTo.browserOrigins().join(' ')}`, ...rest].join('; '));
    }
    await next();
  };
}

/** Whether a Host's name is an IP address, IPv6 in its brackets. */
const isAddress = (hostname: string) => isIP(hostname.replace(/^\[(.*)\]$/, '$1')) !== 0;

/**
 * DNS rebinding: a site's name, made to resolve to the hub's address, turns the hub into that site's own origin for
 * the browser, so it may read every answer. The Host header still carries the site's name, so the admin API answers
 * only to localhost, to IP addresses (a rebinding needs a name: a page whose origin is an address is served by that
 * address), and to the names an operator allows. 421 Misdirected Request (RFC 9110, 15.5.20): this server does not
 * answer for that name; the caller's credential is not at issue, as 403 would say. Orchestrators probe by the pod's
 * address, so /health passes as anything else does.
 */
export function allowedHosts(names: readonly string[]): Middleware {
  const allowed = new Set(names);
  return async (ctx, next) => {
    const hostname = hostnameOf(ctx.get('Host'));
    if (!hostname || !(hostname === 'localhost' || isAddress(hostname) || allowed.has(hostname))) {
      throw new HttpError(421, 'clientError', `Misdirected request: the admin API does not answer to host ${ctx.get('Host').slice(0, 64) || '(none)'}`);
    }
    await next();
  };
}

/** The origin (scheme://host:port) the browser sees the admin API at: the page's own, when the console calls. */
function ownOrigin(ctx: Context): string | undefined {
  return URL.canParse(`${ctx.protocol}://${ctx.host}`) ? new URL(`${ctx.protocol}://${ctx.host}`).origin : undefined;
}

/**
 * Cross-site requests: the browser names the page that sends one in Origin (every POST and PUT, and a GET that a
 * script fetches), so one from another origin than the admin API's own and those ADMIN_ALLOWED_ORIGINS names is
 * refused, whatever its method: no CORS is offered, so such a page could not read an answer anyway, and need not make
 * the hub search its traces for it. A request without Origin that the browser marks cross-site and is not a
 * navigation (an image, a script tag of another site's page) is refused too; following a link to the console is not.
 */
export function sameOrigin(origins: readonly string[]): Middleware {
  const allowed = new Set(origins);
  return async (ctx, next) => {
    const origin = ctx.get('Origin');
    if (origin) {
      const from = URL.canParse(origin) ? new URL(origin).origin : 'null';
      if (from !== ownOrigin(ctx) && !allowed.has(from)) {
        throw new HttpError(403, 'clientError', `Forbidden: a page of ${origin.slice(0, 64)} may not call the admin API`);
      }
    } else if (ctx.get('Sec-Fetch-Site') === 'cross-site' && ctx.get('Sec-Fetch-Mode') !== 'navigate') {
      throw new HttpError(403, 'clientError', "Forbidden: another site's page may not call the admin API");
    }
    await next();
  };
}

/** JSON, with at most its one charset; RFC 8259 has JSON in UTF-8. */
const JSON_MEDIA_TYPE = /^application\/json\s*(?:;\s*charset\s*=\s*"?utf-8"?\s*)?$/i;

/**
 * The settlement bank's confirmation may come as CSV (POST /v2/settlements/{id}/bankConfirmation). text/csv is no more
 * a page's to send unasked than JSON: Fetch lets another site send only a form's or text/plain body without the
 * browser's permission (a CORS-safelisted Content-Type), so it is as safe to take.
 */
const CSV_MEDIA_TYPE = /^text\/csv\s*(?:;\s*charset\s*=\s*"?utf-8"?\s*)?$/i;

/**
 * Every body the admin API takes is JSON (or, for the bank's confirmation, CSV). A page of another site can send a
 * form's or text/plain body without asking the browser's permission, never application/json: so POST and PUT, which
 * change things, must say application/json, or they are 415 Unsupported Media Type with 3101 (Malformed syntax), the
 * code Mojaloop's hub (central-services-error-handling) gives a 415.
 */
export function jsonBodies(): Middleware {
  return async (ctx, next) => {
    const type = ctx.get('Content-Type');
    if ((ctx.method === 'POST' || ctx.method === 'PUT') && !JSON_MEDIA_TYPE.test(type) && !CSV_MEDIA_TYPE.test(type)) {
      throw new HttpError(415, 'malformedSyntax', `Content-Type must be application/json${type ? `, not ${type.slice(0, 64)}` : ''}`);
    }
    await next();
  };
}
