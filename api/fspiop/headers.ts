import type { Context, Middleware } from 'koa';
import { mediaTypeNameOf, Resource, THIRDPARTY_VERSION } from '../../activities/shared/contracts/conversations';
import { HttpError } from '../../activities/shared/platform/httpError';
import { isCallback as isCallbackMethod, type HttpMethod } from '../../activities/shared/platform/fspiopHttp';
import { errorInformation } from '../../activities/shared/contracts/errors';

/** FSPIOP versions this switch speaks (Document 2, "Versioning"). */
export const SUPPORTED_VERSIONS = ['1.0', '1.1'];

/** Third-party API versions this switch speaks. */
export const THIRDPARTY_VERSIONS = [THIRDPARTY_VERSION];

/** The media type names and versions a resource's messages may carry. */
interface Dialect {
  /** Names accepted in `application/vnd.interoperability.{name}+json`; the first is the one the hub sends. */
  names: string[];
  versions: string[];
}

/**
 * FSPIOP names each resource in its media type; the third-party API has one name, `thirdparty`, for every resource,
 * as Mojaloop's thirdparty-sdk sends it. A third-party message naming its own resource (`consents`) is taken too,
 * since Mojaloop's thirdparty-api-svc does not tell them apart.
 */
function dialectOf(resource: Resource): Dialect {
  const name = mediaTypeNameOf(resource);
  if (name === resource) return { names: [resource], versions: SUPPORTED_VERSIONS };
  return { names: [name, resource.split('/')[0]], versions: THIRDPARTY_VERSIONS };
}

const latestOf = (dialect: Dialect) => dialect.versions[dialect.versions.length - 1];

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
  resource: Resource;
  source: string;
  destination?: string;
  /** The version the hub uses in callbacks it makes itself for this request. */
  version: string;
  headers: FspiopHeaders;
}

const mediaType = /^application\/vnd\.interoperability\.([a-zA-Z]+)\+json\s*(?:;\s*version\s*=\s*(\d+)(?:\.(\d+))?)?\s*$/;

/** The words of Mojaloop's header validation, which its tooling matches on (central-services-shared). */
const UNSUPPORTED_ACCEPT = 'The Client requested an unsupported version, see extension list for supported version(s).';
const UNSUPPORTED_CONTENT_TYPE = 'Client supplied a protocol version which is not supported by the server';

function parseMediaType(value: string, header: 'Accept' | 'Content-Type', dialect: Dialect): { major?: string; minor?: string } {
  const match = mediaType.exec(value);
  if (!match || !dialect.names.includes(match[1])) throw new HttpError(400, 'malformedSyntax', `Invalid ${header.toLowerCase()} header`);
  return { major: match[2], minor: match[3] };
}

/** A 406 (3001) listing the versions the hub speaks, as Mojaloop's does: one extension per version, major as key, minor as value. */
function unsupportedVersion(detail: string, dialect: Dialect): HttpError {
  const refused = errorInformation('unacceptableVersion', detail);
  const extension = dialect.versions.map((version) => {
    const [key, value] = version.split('.');
    return { key, value };
  });
  return new HttpError(406, 'unacceptableVersion', undefined, { ...refused, extensionList: { extension } });
}

/** Version negotiation: Accept may name a major version only ("version=1"); the switch answers in its latest minor. */
function negotiate(accept: string, dialect: Dialect): string {
  const latest = latestOf(dialect);
  const versions = accept.split(',').map((part) => parseMediaType(part.trim(), 'Accept', dialect));
  for (const { major, minor } of versions) {
    if (major === undefined) return latest;
    if (minor === undefined && dialect.versions.some((version) => version.startsWith(`${major}.`))) return latest;
    const version = `${major}.${minor}`;
    if (dialect.versions.includes(version)) return version;
  }
  throw unsupportedVersion(UNSUPPORTED_ACCEPT, dialect);
}

/**
 * The Content-Type of an error the gateway answers: the resource's media type in the version the request was being
 * answered in, or the hub's latest where the request's own headers named none it speaks.
 */
export function errorMediaType(resource: Resource, ctx: Context): string {
  const dialect = dialectOf(resource);
  const checked: FspiopRequest | undefined = ctx.state.fspiop;
  let version = checked?.version;
  if (!version) {
    const sent = mediaType.exec(ctx.get('Content-Type'));
    const named = sent && dialect.names.includes(sent[1]) && sent[3] !== undefined ? `${sent[2]}.${sent[3]}` : undefined;
    version = named && dialect.versions.includes(named) ? named : latestOf(dialect);
  }
  return `application/vnd.interoperability.${dialect.names[0]}+json;version=${version}`;
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
  if (!value) throw new HttpError(400, 'missingElement', `/header must have required property '${name.toLowerCase()}'`);
  return value;
}

/** Who may send a message through the switch. */
export interface Senders {
  /** Why `fspId` cannot take part in a conversation now, or undefined if it can. */
  unavailable(fspId: string): Promise<string | undefined>;
  /**
   * The hub's own identities (its participant, its Auth service): they speak only from inside the hub, never through
   * its gateway, so a message claiming one is spoofed and would otherwise pass on as the hub's word.
   */
  ownIdentities: readonly string[];
}

/**
 * Checks the FSPIOP headers of a request (GET, POST, DELETE: Accept required) or callback (PUT, PATCH:
 * no Accept), and records who sent it and where it goes. Content-Type, with its version, is required on every
 * message, a GET included, as Mojaloop's hub requires it. Wrong or missing headers are 400 with the code that names the
 * problem; an unsupported version is 406 (3001); a sender that is one of the hub's own identities is 400 (3100).
 */
export function fspiopHeaders(resource: Resource, senders: Senders): Middleware {
  const dialect = dialectOf(resource);
  return async (ctx, next) => {
    const isCallback = isCallbackMethod(ctx.method as HttpMethod, dialect.names[0] === 'thirdparty');
    let version = latestOf(dialect);
    if (!isCallback) version = negotiate(required(ctx, 'Accept'), dialect);
    const { major, minor } = parseMediaType(required(ctx, 'Content-Type'), 'Content-Type', dialect);
    // Document 2 (Versioning) gives Content-Type the parameter version=<x.y>, and Mojaloop's hub refuses it without
    // one (3101): a message that does not say its version cannot be read in the right one.
    if (major === undefined || minor === undefined) throw new HttpError(400, 'malformedSyntax', 'Invalid content-type header');
    const sent = `${major}.${minor}`;
    if (!dialect.versions.includes(sent)) throw unsupportedVersion(UNSUPPORTED_CONTENT_TYPE, dialect);
    if (isCallback) version = sent;
    const date = required(ctx, 'Date');
    if (!isHttpDate(date)) throw new HttpError(400, 'malformedSyntax', 'Invalid date header');
    const source = required(ctx, 'FSPIOP-Source');
    if (senders.ownIdentities.includes(source)) {
      throw new HttpError(400, 'validationError', `FSPIOP-Source ${source} is the hub's own: the hub sends nothing through its gateway`);
    }
    const problem = await senders.unavailable(source);
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
