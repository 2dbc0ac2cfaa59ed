import type { Context, Middleware } from 'koa';
import { mediaTypeNameOf, Resource, THIRDPARTY_VERSION } from '../../activities/shared/contracts/conversations';
import { HttpError } from '../../activities/shared/platform/httpError';
import { isCallback as isCallbackMethod, type HttpMethod } from '../../activities/shared/platform/fspiopHttp';
import { errorInformation } from '../../activities/shared/contracts/errors';
import { NOT_A_PARTICIPANT } from '../../activities/hub/delivery/directory';
import { ISO20022_VERSION, iso20022MediaTypeName, namesIso20022, type ApiType } from '../../activities/shared/contracts/apiType';

/**
 * FSPIOP versions this switch speaks (Document 2, "Versioning"): 1.0 and 1.1 of the specification, and 2.0, the
 * version Mojaloop's current release speaks by default (its foreign-exchange resources aside).
 */
export const SUPPORTED_VERSIONS = ['1.0', '1.1', '2.0'];

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
function dialectOf(resource: Resource, apiType?: ApiType): Dialect {
  // ISO 20022 mode (API_TYPE): the resource's ISO 20022 media type only, at the one version it has, as Mojaloop's switch.
  if (namesIso20022(apiType, resource)) return { names: [iso20022MediaTypeName(resource)], versions: [ISO20022_VERSION] };
  const name = mediaTypeNameOf(resource);
  if (name === resource) return { names: [resource], versions: SUPPORTED_VERSIONS };
  return { names: [name, resource.split('/')[0]], versions: THIRDPARTY_VERSIONS };
}

const latestOf = (dialect: Dialect) => dialect.versions[dialect.versions.length - 1];

/** The latest version the dialect has of a major version (`2` → `2.0`), or undefined if it has none. */
const latestOfMajor = (dialect: Dialect, major: string) => dialect.versions.filter((version) => version.startsWith(`${major}.`)).pop();

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
  /** The version the message is written in (its Content-Type's), whose document its body is held to. */
  contentVersion: string;
  headers: FspiopHeaders;
  /** The sender is no participant, and the resource answers that itself (UnknownSourceAnswer). */
  unknownSource?: true;
}

const mediaType = /^application\/vnd\.interoperability\.((?:iso20022\.)?[a-zA-Z]+)\+json\s*(?:;\s*version\s*=\s*(\d+)(?:\.(\d+))?)?\s*$/;

/** The words of Mojaloop's header validation, which its tooling matches on (central-services-shared). */
const UNSUPPORTED_ACCEPT = 'The Client requested an unsupported version, see extension list for supported version(s).';
const UNSUPPORTED_CONTENT_TYPE = 'Client supplied a protocol version which is not supported by the server';
const MISSING = { Accept: 'Accept is required', 'Content-Type': 'Content-type is required', Date: 'Missing required date header' };

/**
 * Bodies Mojaloop's HTTP server (hapi) can read at all: JSON, text, forms and bytes. Any other media type it refuses
 * before its header validation runs, and its error handler answers that as 3101 "Unsupported Media Type".
 */
const READABLE_MEDIA = /^\s*(?:application\/(?:json|[\w.+-]*\+json|octet-stream|x-www-form-urlencoded)|multipart\/form-data|text\/[\w.+-]+)\s*(?:;|$)/i;

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

/**
 * Version negotiation: the first version Accept names that the switch speaks. A major version alone ("version=2") is
 * answered in the switch's latest minor of it; an Accept that names no version, in the version its sender spoke (the
 * answer, taking that, is given once the Content-Type is read). None the switch speaks is 406 (3001).
 */
function acceptedVersions(accept: string, dialect: Dialect): (spoken: string) => string {
  const versions = accept.split(',').map((part) => parseMediaType(part.trim(), 'Accept', dialect));
  for (const { major, minor } of versions) {
    if (major === undefined) return (spoken) => spoken;
    const version = minor === undefined ? latestOfMajor(dialect, major) : `${major}.${minor}`;
    if (version && dialect.versions.includes(version)) return () => version;
  }
  throw unsupportedVersion(UNSUPPORTED_ACCEPT, dialect);
}

/**
 * The Content-Type of an error the gateway answers: the resource's media type in the version the request was being
 * answered in, or the hub's latest where the request's own headers named none it speaks.
 */
export function errorMediaType(resource: Resource, ctx: Context, apiType?: ApiType): string {
  const dialect = dialectOf(resource, apiType);
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

/** A header every message must carry: missing, it is 3102 in the words of Mojaloop's header validation where it has them. */
function required(ctx: Context, name: keyof typeof MISSING | 'FSPIOP-Source'): string {
  const value = ctx.get(name);
  if (!value) throw new HttpError(400, 'missingElement', name === 'FSPIOP-Source' ? `/header must have required property 'fspiop-source'` : MISSING[name]);
  return value;
}

/** The version a message's Content-Type says it is written in; one the switch does not speak is 406 (3001). */
function contentVersion(ctx: Context, dialect: Dialect): string {
  const contentType = required(ctx, 'Content-Type');
  if (ctx.method !== 'GET' && ctx.method !== 'DELETE' && !READABLE_MEDIA.test(contentType)) {
    throw new HttpError(400, 'malformedSyntax', 'Unsupported Media Type');
  }
  const { major, minor } = parseMediaType(contentType, 'Content-Type', dialect);
  // Document 2 (Versioning) gives Content-Type the parameter version=<x.y>, and Mojaloop's hub refuses it without
  // one (3101): a message that does not say its version cannot be read in the right one.
  if (major === undefined || minor === undefined) throw new HttpError(400, 'malformedSyntax', 'Invalid content-type header');
  const version = `${major}.${minor}`;
  if (!dialect.versions.includes(version)) throw unsupportedVersion(UNSUPPORTED_CONTENT_TYPE, dialect);
  return version;
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
  /** Notes the FSPIOP version a participant has just spoken, in which the hub then writes to it (ParticipantDirectory). */
  heard?(fspId: string, version: string): Promise<void>;
}

/**
 * How an FSPIOP-Source that is no participant is answered where a resource's service answers it otherwise than the
 * switch does: a refusal of its own; `pass` to let the message on, marked `unknownSource`, for its router to answer
 * as that service does; undefined for the switch's refusal (400, 3200 with the reason).
 */
export type UnknownSourceAnswer = (ctx: Context) => HttpError | 'pass' | undefined;

/**
 * Checks the FSPIOP headers of a request (GET, POST, DELETE: Accept required) or callback (PUT, PATCH:
 * no Accept), and records who sent it and where it goes, in the order of Mojaloop's header validation: Accept, Date,
 * Content-Type. Content-Type, with its version, is required on every message, a GET included, as Mojaloop's hub
 * requires it. Wrong or missing headers are 400 with the code that names the problem; an unsupported version is 406
 * (3001); a sender that is one of the hub's own identities is 400 (3100). In ISO 20022 mode (`apiType`) a resource with
 * an ISO 20022 form takes its ISO 20022 media type instead.
 */
export function fspiopHeaders(resource: Resource, senders: Senders, unknownSource?: UnknownSourceAnswer, apiType?: ApiType): Middleware {
  const dialect = dialectOf(resource, apiType);
  return async (ctx, next) => {
    const isCallback = isCallbackMethod(ctx.method as HttpMethod, dialect.names[0] === 'thirdparty');
    const accept = isCallback ? undefined : acceptedVersions(required(ctx, 'Accept'), dialect);
    const date = required(ctx, 'Date');
    if (!isHttpDate(date)) throw new HttpError(400, 'malformedSyntax', 'Invalid date header');
    const spoken = contentVersion(ctx, dialect);
    const source = required(ctx, 'FSPIOP-Source');
    if (senders.ownIdentities.includes(source)) {
      throw new HttpError(400, 'validationError', `FSPIOP-Source ${source} is the hub's own: the hub sends nothing through its gateway`);
    }
    const problem = await senders.unavailable(source);
    const answer = problem === NOT_A_PARTICIPANT ? unknownSource?.(ctx) : undefined;
    const isUnknown = answer === 'pass';
    if (answer instanceof HttpError) throw answer;
    if (problem && !isUnknown) throw new HttpError(400, 'idNotFound', `FSPIOP-Source ${source}: ${problem}`);
    // An ISO 20022 message's version says nothing of the FSPIOP version its sender reads.
    if (!problem && dialect.names[0] === resource) await senders.heard?.(source, spoken);
    const headers: FspiopHeaders = {};
    for (const name of FORWARDED_HEADERS) {
      const value = ctx.get(name);
      if (value) headers[name] = value;
    }
    const version = accept?.(spoken) ?? spoken;
    const destination = ctx.get('FSPIOP-Destination') || undefined;
    const request: FspiopRequest = { resource, source, destination, version, contentVersion: spoken, headers, ...(isUnknown ? { unknownSource: true } : {}) };
    ctx.state.fspiop = request;
    await next();
  };
}
