import type { Context } from 'koa';

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
