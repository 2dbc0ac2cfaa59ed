import { context, propagation, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import Router from '@koa/router';
import client from 'prom-client';

/** This process's own metrics: Node's, and the answer times of the gateways it serves. */
export const metricsRegistry = new client.Registry();
client.collectDefaultMetrics({ register: metricsRegistry });

/** The scheme's, read from the database when scraped (registerSchemeMetrics): the same whichever process answers. */
export const schemeRegistry = new client.Registry();

export const httpRequests = new client.Histogram({
  name: 'hub_http_request_seconds',
  help: 'Time to answer an HTTP request, by gateway, method, route and status',
  labelNames: ['gateway', 'method', 'route', 'status'],
  buckets: [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
  registers: [metricsRegistry],
});

/** A named dependency the health endpoint reports on; `check` throws when it is down. */
export interface HealthCheck {
  name: string;
  check: () => Promise<void>;
}

export type Health = HealthCheck[];

const startTime = new Date();

/** `/health` in Mojaloop's shape (status, uptime, services) and `/metrics` for Prometheus. */
export function observabilityRoutes(health: Health): Router {
  const router = new Router();
  router.get('/health', async (ctx) => {
    const services = await Promise.all(
      health.map(async ({ name, check }) => ({
        name,
        status: await check().then(
          () => 'OK',
          () => 'DOWN',
        ),
      })),
    );
    const status = services.every((service) => service.status === 'OK') ? 'OK' : 'DOWN';
    ctx.status = status === 'OK' ? 200 : 502;
    ctx.body = {
      status,
      uptime: Math.round(process.uptime()),
      startTime: startTime.toISOString(),
      versionNumber: process.env.npm_package_version ?? '0.1.0',
      services,
    };
  });
  router.get('/metrics', async (ctx) => {
    ctx.type = metricsRegistry.contentType;
    ctx.body = (await metricsRegistry.metrics()) + (await schemeRegistry.metrics());
  });
  return router;
}

/** Records every request's duration under the matched route (not the raw path, to keep labels bounded). */
export function httpTiming(gateway: string): import('koa').Middleware {
  return async (ctx, next) => {
    const end = httpRequests.startTimer();
    try {
      await next();
    } finally {
      end({ gateway, method: ctx.method, route: (ctx as { _matchedRoute?: string })._matchedRoute ?? 'unmatched', status: String(ctx.status) });
    }
  };
}

const tracer = trace.getTracer('hub-gateway');

/**
 * A span of every request (activities/platform/tracing.ts), in the trace of the `traceparent` the participant sent if
 * it sent one, named after the matched route; the workflows the request starts or signals continue it. Without a
 * tracer provider (tracing off) the span records nothing.
 */
export function httpTracing(gateway: string): import('koa').Middleware {
  return (ctx, next) =>
    tracer.startActiveSpan(`${ctx.method} ${ctx.path}`, { kind: SpanKind.SERVER }, propagation.extract(context.active(), ctx.headers), async (span) => {
      try {
        await next();
      } finally {
        const route = (ctx as { _matchedRoute?: string })._matchedRoute;
        if (route) span.updateName(`${ctx.method} ${route}`);
        span.setAttributes({
          'hub.gateway': gateway,
          'http.request.method': ctx.method,
          'url.path': ctx.path,
          'http.response.status_code': ctx.status,
          ...(ctx.get('fspiop-source') && { 'fspiop.source': ctx.get('fspiop-source') }),
          ...(ctx.get('fspiop-destination') && { 'fspiop.destination': ctx.get('fspiop-destination') }),
        });
        if (ctx.status >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
        span.end();
      }
    });
}
