import crypto from 'node:crypto';
import cluster from 'node:cluster';
import { context, propagation, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import Router from '@koa/router';
import type { Middleware } from 'koa';
import client, { AggregatorRegistry } from 'prom-client';

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
  const router = healthRoutes(health);
  router.get('/metrics', metricsAnswer);
  return router;
}

/**
 * `/health` alone, for a gateway whose callers must not read the metrics: the switch, which answers participants
 * (every position and Net Debit Cap is in the scheme's metrics), while probes still find whether it is up.
 */
export function healthRoutes(health: Health): Router {
  const router = new Router();
  router.get('/health', healthAnswer(health));
  return router;
}

/** This process's metrics (every copy's, where a gateway runs several) and the scheme's, in Prometheus' text format. */
export const metricsAnswer: Middleware = async (ctx) => {
  ctx.type = metricsRegistry.contentType;
  ctx.body = (cluster.isWorker ? await copiesMetrics() : await metricsRegistry.metrics()) + (await schemeRegistry.metrics());
};

/** Whether the hub and what it depends on are up, as Mojaloop's services answer /health: 200 OK, or 502 DOWN. */
export function healthAnswer(health: Health): Middleware {
  return async (ctx) => {
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
  };
}

const COPIES_METRICS = 'hub:copiesMetrics';
const COPIES_METRICS_TIMEOUT_MS = 10_000;

/**
 * In a copy of a gateway that runs several (GATEWAY_PROCESSES): every copy's own metrics, summed by the supervisor
 * (superviseMetrics). The copies share one port and a scrape reaches one of them, in turn: its own counters alone
 * would go up and down from scrape to scrape.
 */
function copiesMetrics(): Promise<string> {
  const id = crypto.randomUUID();
  return new Promise((resolve, reject) => {
    const answer = (message: { type?: string; id?: string; metrics?: string; error?: string }) => {
      if (message?.type !== COPIES_METRICS || message.id !== id) return;
      clearTimeout(timer);
      process.off('message', answer);
      if (message.error !== undefined) reject(new Error(`the copies' metrics could not be gathered: ${message.error}`));
      else resolve(message.metrics ?? '');
    };
    const timer = setTimeout(() => {
      process.off('message', answer);
      reject(new Error("the gateway's supervisor did not answer with the copies' metrics"));
    }, COPIES_METRICS_TIMEOUT_MS);
    process.on('message', answer);
    process.send!({ type: COPIES_METRICS, id });
  });
}

/** In a copy: lets the supervisor ask for this copy's own metrics (prom-client's AggregatorRegistry listens for it). */
export function shareMetricsWithSupervisor(): void {
  AggregatorRegistry.setRegistries(metricsRegistry);
  new AggregatorRegistry();
}

/** In the supervisor of the copies: answers a copy's ask for the metrics of them all, each one's asked and summed. */
export function superviseMetrics(): void {
  const aggregator = new AggregatorRegistry();
  cluster.on('message', (copy, message: { type?: string; id?: string }) => {
    if (message?.type !== COPIES_METRICS) return;
    aggregator.clusterMetrics().then(
      (metrics) => copy.send({ type: COPIES_METRICS, id: message.id, metrics }),
      (error: Error) => copy.send({ type: COPIES_METRICS, id: message.id, error: error.message }),
    );
  });
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
 * A span of every request (activities/shared/platform/tracing.ts), in the trace of the `traceparent` the participant sent if
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
