import type { Context } from 'koa';
import getRawBody from 'raw-body';
import { HttpError } from './httpError';

/** FSPIOP payload limit (Document 2, "Limits"); the admin API shares it. */
export const MAX_PAYLOAD_BYTES = 5_242_880;

/**
 * Reads and parses a JSON body, turning every way it can be wrong into the spec's error: over the size
 * limit is 3104, unparseable is 3101. An empty body is `undefined`. The raw text is kept for request hashing.
 * The stream is read once: the signature check reads the body before the route does, and both get that reading.
 */
export function readJsonBody(ctx: Context): Promise<{ body: unknown; text: string }> {
  ctx.state.jsonBody ??= readOnce(ctx);
  return ctx.state.jsonBody;
}

async function readOnce(ctx: Context): Promise<{ body: unknown; text: string }> {
  let text: string;
  try {
    text = await getRawBody(ctx.req, { limit: MAX_PAYLOAD_BYTES, encoding: 'utf-8' });
  } catch (error) {
    const type = (error as { type?: string }).type;
    if (type === 'entity.too.large') throw new HttpError(400, 'tooLargePayload', `payload exceeds ${MAX_PAYLOAD_BYTES} bytes`);
    throw new HttpError(400, 'malformedSyntax', 'request body could not be read');
  }
  if (text.trim() === '') return { body: undefined, text };
  try {
    return { body: JSON.parse(text), text };
  } catch {
    throw new HttpError(400, 'malformedSyntax', 'request body is not valid JSON');
  }
}
