import type { Context } from 'koa';
import getRawBody from 'raw-body';
import { HttpError } from '../../activities/shared/platform/httpError';

/** FSPIOP payload limit (Document 2, "Limits"); the admin API shares it. */
export const MAX_PAYLOAD_BYTES = 5_242_880;

/**
 * The deepest any API's body nests is under ten levels (a bulk quote's result, its party, its extensions). Far deeper
 * JSON parses, yet would overflow the stack of whatever walks it next (the request hash, Temporal's payload converter):
 * an extra property may hold anything, so the schemas do not stop it.
 */
const MAX_NESTING = 32;

/** JSON is UTF-8 (RFC 8259); a byte sequence that is not must be refused, not replaced with U+FFFD and passed on changed. */
const utf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * Reads and parses a JSON body, turning every way it can be wrong into the spec's error: over the size
 * limit is 3104, not UTF-8 or unparseable is 3101, nested too deep 3100. An empty body is `undefined`. The raw text is
 * kept for request hashing. The stream is read once: the signature check reads the body before the route does, and
 * both get that reading.
 */
export function readJsonBody(ctx: Context): Promise<{ body: unknown; text: string }> {
  ctx.state.jsonBody ??= readOnce(ctx);
  return ctx.state.jsonBody;
}

/**
 * Reads a body that is not JSON (a CSV upload) under the same limits and UTF-8 rule. Kept where readJsonBody keeps its
 * reading, so the audit trail digests it as any other body.
 */
export async function readTextBody(ctx: Context): Promise<string> {
  ctx.state.jsonBody ??= readText(ctx).then((text) => ({ body: undefined, text }));
  return (await (ctx.state.jsonBody as Promise<{ text: string }>)).text;
}

async function readOnce(ctx: Context): Promise<{ body: unknown; text: string }> {
  const text = await readText(ctx);
  if (text.trim() === '') return { body: undefined, text };
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new HttpError(400, 'malformedSyntax', 'request body is not valid JSON');
  }
  if (nestingDepth(text) > MAX_NESTING) throw new HttpError(400, 'validationError', `request body nests deeper than ${MAX_NESTING} levels`);
  return { body, text };
}

async function readText(ctx: Context): Promise<string> {
  let bytes: Buffer;
  try {
    bytes = await getRawBody(ctx.req, { limit: MAX_PAYLOAD_BYTES });
  } catch (error) {
    const type = (error as { type?: string }).type;
    if (type === 'entity.too.large') throw new HttpError(400, 'tooLargePayload', `payload exceeds ${MAX_PAYLOAD_BYTES} bytes`);
    throw new HttpError(400, 'malformedSyntax', 'request body could not be read');
  }
  try {
    return utf8.decode(bytes);
  } catch {
    throw new HttpError(400, 'malformedSyntax', 'request body is not valid UTF-8');
  }
}

/** How deep a JSON text's arrays and objects nest, counted without recursion. */
function nestingDepth(text: string): number {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (c === '\\') i++;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === '{' || c === '[') deepest = Math.max(deepest, ++depth);
    else if (c === '}' || c === ']') depth--;
  }
  return deepest;
}
