import type { Middleware } from 'koa';
import { conversationOf } from '../../activities/shared/contracts/messageLog';
import { registerMessageLogMetrics, type MessageLog } from '../../activities/hub/trace/messageLog';
import { metricsRegistry } from '../http/observability';
import { FORWARDED_HEADERS, type FspiopRequest } from './headers';

/**
 * Logs every message a participant sends the switch that names a conversation (activities/shared/contracts/messageLog.ts), with the
 * FSPIOP headers and body it came with and the answer it got (a refusal's ErrorInformation too), once it is answered.
 * It runs outside the error handling, so a refused message is logged with the status it was refused with, against the
 * sender the header checks established, if they got that far. The entries the log drops are counted on this gateway's
 * /metrics.
 */
export function inboundMessageLog(messageLog: MessageLog): Middleware {
  registerMessageLogMetrics(metricsRegistry);
  return async (ctx, next) => {
    const started = Date.now();
    try {
      await next();
    } finally {
      const read = (await Promise.resolve(ctx.state.jsonBody).catch(() => undefined)) as { body: unknown; text: string } | undefined;
      const conversation = conversationOf(ctx.method, ctx.path, read?.body);
      if (conversation) {
        const headers = Object.fromEntries(
          FORWARDED_HEADERS.flatMap((name) => (typeof ctx.get(name) === 'string' && ctx.get(name) !== '' ? [[name, ctx.get(name)]] : [])),
        );
        const refusal = (ctx.body as { errorInformation?: { errorCode?: string; errorDescription?: string } } | undefined)?.errorInformation;
        messageLog.record({
          direction: 'in',
          conversation,
          method: ctx.method,
          target: ctx.url,
          source: headers['fspiop-source'],
          destination: headers['fspiop-destination'],
          sender: (ctx.state.fspiop as FspiopRequest | undefined)?.source,
          headers,
          body: read?.text || undefined,
          status: ctx.status,
          error: ctx.status >= 400 && refusal ? `${refusal.errorCode} ${refusal.errorDescription}` : undefined,
          at: new Date(started),
          durationMs: Date.now() - started,
        });
      }
    }
  };
}
