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
  // Who the request came from, for the DFSP's own logs and controls, as a proxy passes it on.
  'x-forwarded-for',
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

/**
 * The Content-Type of an error the gateway answers: the resource's FSPIOP media type in the version the request
 * was being answered in, or the hub's latest where the request's own headers named none it speaks.
 */
export function errorMediaType(resource: string, ctx: Context): string {
  const checked: FspiopRequest | undefined = ctx.state.fspiop;
  let version = checked?.version;
  if (!version) {
    const sent = mediaType.exec(ctx.get('Content-Type'));
    const named = sent && sent[1] === resource && sent[2] !== undefined ? `${sent[2]}.${sent[3] ?? '0'}` : undefined;
    version = named && SUPPORTED_VERSIONS.includes(named) ? named : LATEST;
  }
  return `application/vnd.interoperability.${resource}+json;version=${version}`;
}

const DAY = '(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun)';
const MONTH = '(?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)';
const TIME = '\\d{2}:\\d{2}:\\d{2}';
/** The three forms of an HTTP-date a recipient must accept (RFC 7231, section 7.1.1.1); nothing else is a date. */
const HTTP_DATE = [
  new RegExp(`^${DAY}, \\d{2} ${MONTH} \\d{4} ${TIME} GMT$`),
  new RegExp(`^(?:Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday), \\d{2}-${MONTH}-\\d{2} ${TIME} GMT$`),
  new RegExp(`^${DAY} ${MONTH} [ \\d]\\d ${TIME} \\d{4}$`),
];

function isHttpDate(value: string): boolean {
  return HTTP_DATE.some((form) => form.test(value)) && !Number.isNaN(Date.parse(value));
}

function required(ctx: Context, name: string): string {
  const value = ctx.get(name);
  if (!value) throw new HttpError(400, 'missingElement', `header ${name} is required`);
  return value;
}

/**
 * Checks the FSPIOP headers of a request (GET, POST, DELETE: Accept required) or callback (PUT, PATCH:
 * no Accept), and records who sent it and where it goes. Content-Type is required on every message, a GET
 * included, as Mojaloop's hub requires it. Wrong or missing headers are 400 with the code that names the
 * problem; an unsupported version is 406 (3001).
 */
export function fspiopHeaders(resource: string, isKnownActiveParticipant: (fspId: string) => Promise<string | undefined>): Middleware {
  return async (ctx, next) => {
    const isCallback = ctx.method === 'PUT' || ctx.method === 'PATCH';
    let version = LATEST;
    if (!isCallback) version = negotiate(required(ctx, 'Accept'), resource);
    const { major, minor } = parseMediaType(required(ctx, 'Content-Type'), 'Content-Type', resource);
    const sent = `${major ?? '1'}.${minor ?? '0'}`;
    if (!SUPPORTED_VERSIONS.includes(sent)) {
      throw new HttpError(406, 'unacceptableVersion', `Content-Type version ${sent} is not supported (${SUPPORTED_VERSIONS.join(', ')})`);
    }
    if (isCallback) version = sent;
    const date = required(ctx, 'Date');
    if (!isHttpDate(date)) throw new HttpError(400, 'malformedSyntax', `header Date "${date}" is not an HTTP-date (RFC 7231)`);
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
