import type { Context, Middleware } from 'koa';
import { HttpError } from '../http/httpError';

/** FSPIOP versions this switch speaks (Document 2, "Versioning"). */
export const SUPPORTED_VERSIONS = ['1.0', '1.1'];
const LATEST = '1.1';

/** Headers a switch passes on untouched, so end-to-end signatures and tracing survive the hop. */
export const FORWARDED_HEADERS = [
  'accept',
  'content-type',
  'date',
  'fspiop-source',
  'fspiop-destination',
  'fspiop-signature',
  'fspiop-uri',
  'fspiop-http-method',
  'fspiop-encryption',
  'traceparent',
  'tracestate',
] as const;

export type FspiopHeaders = Record<string, string>;

export interface FspiopRequest {
  resource: string;
  source: string;
  destination?: string;
  /** The version the hub uses in callbacks it makes itself for this request. */
  version: string;
  headers: FspiopHeaders;
}

const mediaType = /^application\/vnd\.interoperability\.([a-zA-Z]+)\+json\s*(?:;\s*version\s*=\s*(\d+)(?:\.(\d+))?)?\s*$/;

function parseMediaType(value: string, header: string, resource: string): { major?: string; minor?: string } {
  const match = mediaType.exec(value);
  if (!match || match[1] !== resource) {
    throw new HttpError(400, 'malformedSyntax', `${header} must be application/vnd.interoperability.${resource}+json;version=1.1`);
  }
  return { major: match[2], minor: match[3] };
}

/** Version negotiation: Accept may name a major version only ("version=1"); the switch answers in its latest minor. */
function negotiate(accept: string, resource: string): string {
  const versions = accept.split(',').map((part) => parseMediaType(part.trim(), 'Accept', resource));
  for (const { major, minor } of versions) {
    if (major === undefined) return LATEST;
    if (minor === undefined && SUPPORTED_VERSIONS.some((version) => version.startsWith(`${major}.`))) return LATEST;
    const version = `${major}.${minor}`;
    if (SUPPORTED_VERSIONS.includes(version)) return version;
  }
  throw new HttpError(406, 'unacceptableVersion', `Accept ${accept} names no supported version (${SUPPORTED_VERSIONS.join(', ')})`);
}

function required(ctx: Context, name: string): string {
  const value = ctx.get(name);
  if (!value) throw new HttpError(400, 'missingElement', `header ${name} is required`);
  return value;
}

/**
 * Checks the FSPIOP headers of a request (GET, POST, DELETE: Accept required) or callback (PUT, PATCH:
 * no Accept), and records who sent it and where it goes. Wrong or missing headers are 400 with the code
 * that names the problem; an unsupported version is 406 (3001).
 */
export function fspiopHeaders(resource: string, isKnownActiveParticipant: (fspId: string) => Promise<string | undefined>): Middleware {
  return async (ctx, next) => {
    const isCallback = ctx.method === 'PUT' || ctx.method === 'PATCH';
    let version = LATEST;
    if (!isCallback) version = negotiate(required(ctx, 'Accept'), resource);
    if (ctx.method === 'POST' || isCallback) {
      const { major, minor } = parseMediaType(required(ctx, 'Content-Type'), 'Content-Type', resource);
      const sent = `${major ?? '1'}.${minor ?? '0'}`;
      if (!SUPPORTED_VERSIONS.includes(sent)) {
        throw new HttpError(406, 'unacceptableVersion', `Content-Type version ${sent} is not supported (${SUPPORTED_VERSIONS.join(', ')})`);
      }
      if (isCallback) version = sent;
    }
    const date = required(ctx, 'Date');
    if (Number.isNaN(Date.parse(date))) throw new HttpError(400, 'malformedSyntax', `header Date "${date}" is not an HTTP date`);
    const source = required(ctx, 'FSPIOP-Source');
    const problem = await isKnownActiveParticipant(source);
    if (problem) throw new HttpError(400, 'idNotFound', `FSPIOP-Source ${source}: ${problem}`);
    const headers: FspiopHeaders = {};
    for (const name of FORWARDED_HEADERS) {
      const value = ctx.get(name);
      if (value) headers[name] = value;
    }
    const request: FspiopRequest = { resource, source, destination: ctx.get('FSPIOP-Destination') || undefined, version, headers };
    ctx.state.fspiop = request;
    await next();
  };
}
