import type { Context } from 'koa';
import type { Logger } from 'pino';

/** 202 with no body: the request was accepted; the answer comes as a callback (Document 2, general rule 1). */
export function accepted(ctx: Context): void {
  ctx.body = null;
  ctx.status = 202;
}

/** 200 with no body: a callback was received. */
export function ok(ctx: Context): void {
  ctx.body = null;
  ctx.status = 200;
}

/** Continues acknowledged work without waiting for it (the sender already has its 202 or 200); failures are logged. */
export function inBackground(work: Promise<unknown>, log: Logger, what: string): void {
  work.catch((err: unknown) => log.error({ err, what }, 'background work failed'));
}
