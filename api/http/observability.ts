import Router from '@koa/router';
import client from 'prom-client';

export const metricsRegistry = new client.Registry();
client.collectDefaultMetrics({ register: metricsRegistry });

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
    ctx.body = await metricsRegistry.metrics();
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
