import fc from 'fast-check';
import { MAX_PAYLOAD_BYTES } from '../../api/http/body';
import { MAX_HEADER_BYTES } from '../../api/http/gateway';
import { uniqueName } from '../helpers/database';
import type { SimulatedDfsp } from '../helpers/dfsp';
import { fspiopHeadersOf, HUB_ID } from '../helpers/switchHarness';
import { AUTH_SERVICE } from '../helpers/thirdpartyFlows';
import { operationsOf, type Operation } from './documents';
import type { FuzzScheme } from './fixture';
import { mutationOf, Nested, type Impostor, type Mutation, type TextForm } from './mutations';
import { idKindsOf, pathWith, sampleOf, type IdKind, type Message } from './samples';
import type { WireRequest } from './wire';

/** What the suite generates: an operation's valid message, who sends it, and how it is spoiled. */
export interface FuzzCase {
  operation: Operation;
  /** Picks the kind of ID the message names among those its operation has (idKindsOf). */
  idKind: number;
  /** Absent: its rightful sender sends it; else it picks a real participant with no right to. */
  stranger?: number;
  mutations: Mutation[];
}

/**
 * What the hub owes a case: `refused`, a 4xx with ErrorInformation, for anything malformed or from no participant
 * that may use the API; `hostile`, for a well-formed message from a participant with no right to send it, a 4xx or an
 * acknowledgement and then nothing but, where the spec owes one, an error callback; `harmless` for a read.
 */
export type Expectation = 'refused' | 'hostile' | 'harmless';

export interface Refusal {
  status: number;
  code: string;
}

export interface PreparedCase {
  operation: Operation;
  /** The method sent, which a mutation may have changed. */
  method: string;
  /** One line naming the operation, the sender and the mutations, for a report. */
  description: string;
  expectation: Expectation;
  /** Why it is malformed, when it is. */
  malformed: string[];
  /** The one refusal it is owed, where the checks' order says which comes first; else any 4xx with ErrorInformation. */
  refusal?: Refusal;
  /** The error callback a stranger is owed for it, once it is acknowledged. */
  owed?: { to: SimulatedDfsp; path: string };
  request(): WireRequest;
}

/** Cases for every operation of the API's document. */
export function caseOf(operations: Operation[]): fc.Arbitrary<FuzzCase> {
  const mutation = mutationOf(operations[0].api);
  // Twice as often as a read: an operation that takes a body, where money and state can move.
  const operation = fc.oneof(...operations.map((op) => ({ weight: op.validBody ? 2 : 1, arbitrary: fc.constant(op) })));
  return fc.oneof(
    // Malformed: one to three mutations, from the rightful sender or anyone.
    {
      weight: 7,
      arbitrary: fc.record({
        operation,
        idKind: fc.nat(),
        stranger: fc.option(fc.nat(), { nil: undefined, freq: 2 }),
        mutations: fc.array(mutation, { minLength: 1, maxLength: 3 }),
      }),
    },
    // Hostile: a participant with no right to send the message, which is left well-formed or nearly so.
    { weight: 3, arbitrary: fc.record({ operation, idKind: fc.nat(), stranger: fc.nat(), mutations: fc.array(mutation, { maxLength: 1 }) }) },
  );
}

/** Routes that take no FSPIOP headers: the observability endpoints. */
const BARE_PATHS = ['/health', '/metrics'];
const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];

/**
 * The case as a request and what the hub owes it; undefined when it is a well-formed message from its rightful sender
 * that is no read, which the suite never sends (it could move money).
 */
export function prepare(fuzzCase: FuzzCase, scheme: FuzzScheme): PreparedCase | undefined {
  const { operation } = fuzzCase;
  const kinds = idKindsOf(operation, scheme);
  const idKind: IdKind = kinds[fuzzCase.idKind % kinds.length];
  const message = sampleOf(operation, scheme, idKind);
  if (!message) throw new Error(`no sample message for ${operation.api} ${operation.key}`);
  const fspiop = operation.api !== 'admin' && !BARE_PATHS.includes(operation.path);
  const stranger = fspiop ? strangerTo(message, scheme, fuzzCase.stranger) : undefined;
  const source = stranger?.name ?? message.source;
  if (fspiop && !source) throw new Error(`the sample message for ${operation.api} ${operation.key} has no source`);

  const malformed: string[] = [];
  const params = { ...message.params };
  const pathOf = () => pathWith(operation, params);
  const headers = new Map(
    Object.entries(
      fspiop
        ? fspiopHeadersOf(operation.method, pathOf(), { source: source!, destination: message.destination })
        : message.body === undefined
          ? {}
          : { 'content-type': 'application/json' },
    ),
  );
  const rawHeaders: Array<[string, Buffer]> = [];
  let method = operation.method;
  let body = structuredClone(stranger && message.strangerBody ? message.strangerBody(stranger.name) : message.body);
  let text: TextForm | undefined;
  let padding = 0;
  const setHeader = (name: string, value: string | undefined) => (value === undefined ? headers.delete(name) : headers.set(name, value));

  for (const mutation of fuzzCase.mutations) {
    switch (mutation.kind) {
      case 'header':
        setHeader(mutation.name, mutation.value);
        // Callbacks carry no Accept; every other FSPIOP header here is only passed on.
        if (fspiop && ['content-type', 'date'].includes(mutation.name)) malformed.push(`${mutation.name} spoiled`);
        if (fspiop && mutation.name === 'accept' && !['PUT', 'PATCH'].includes(operation.method)) malformed.push('accept spoiled');
        break;
      case 'source':
        if (!fspiop) break;
        setHeader('fspiop-source', impostorName(mutation.as, scheme));
        malformed.push(`source ${mutation.as}`);
        break;
      case 'destination':
        if (fspiop) setHeader('fspiop-destination', impostorName(mutation.as, scheme));
        break;
      case 'signature':
        // These campaigns run with JWS validation off, so the signature is passed on unchecked; the signatures campaign
        // (signatureCases.ts) sends forged ones where it is on.
        if (fspiop) setHeader('fspiop-signature', mutation.value);
        break;
      case 'oversizeHeader':
        setHeader(mutation.name, 's'.repeat(mutation.bytes));
        break;
      case 'controlByteInHeader':
        rawHeaders.push(['x-fuzz', Buffer.from([0x61, mutation.byte, 0x62])]);
        malformed.push(`control byte ${mutation.byte} in a header`);
        break;
      case 'drop':
      case 'retype':
      case 'extra':
        body = mutateBody(body, mutation);
        break;
      case 'text':
        text = mutation.text;
        break;
      case 'padding':
        padding = mutation.bytes;
        break;
      case 'segment': {
        const names = Object.keys(params);
        if (names.length === 0) break;
        params[names[mutation.at % names.length]] = mutation.value;
        malformed.push('path parameter spoiled');
        break;
      }
      case 'method': {
        const offered = operationsOf(operation.api)
          .filter((other) => other.path === operation.path)
          .map((other) => other.method);
        const others = METHODS.filter((m) => !offered.includes(m));
        if (others.length === 0) break;
        method = others[mutation.at % others.length];
        malformed.push(`method ${method} not offered`);
        break;
      }
      case 'foreignAccount':
        if (params.id === undefined || !operation.path.includes('/accounts/{id}')) break;
        params.id = String(scheme.settlementAccounts[scheme.payee.name]);
        if (operation.method !== 'GET') malformed.push("another participant's account");
        break;
      case 'unknownParticipant':
        if (params.name === undefined) break;
        params.name = uniqueName('ghost');
        if (operation.method !== 'GET') malformed.push('unknown participant');
        break;
    }
  }

  const target = pathOf() + (message.query ? `?${message.query}` : '');
  const headerBytes = [...headers].reduce((sum, [name, value]) => sum + name.length + value.length + 4, target.length);
  // Far from the limit either way: only an oversize header comes near it, and it alone exceeds it.
  if (headerBytes > MAX_HEADER_BYTES) malformed.push(`headers over ${MAX_HEADER_BYTES} bytes`);
  const takesBody = operation.validBody !== undefined && method === operation.method;
  if (takesBody) {
    const problem = text ? textProblem(text, body, operation) : bodyProblem(body, operation);
    if (problem) malformed.push(problem);
    if (padding > MAX_PAYLOAD_BYTES) malformed.push(`body over ${MAX_PAYLOAD_BYTES} bytes`);
  }

  const expectation: Expectation | undefined = malformed.length > 0 ? 'refused' : stranger ? 'hostile' : operation.method === 'GET' ? 'harmless' : undefined;
  if (!expectation) return undefined;
  // Sent elsewhere (to itself, say, rather than to the hub's Auth service), a message may be routed as any other.
  const answered = fuzzCase.mutations.some((m) => m.kind === 'destination') ? undefined : message.strangerIsAnswered;
  const owed =
    expectation === 'hostile' && answered && (answered.when === 'always' || idKind === 'inFlight') ? { to: stranger!, path: answered.path } : undefined;
  const summary = fuzzCase.mutations.map((m) => JSON.stringify(m, (_, v) => (typeof v === 'string' && v.length > 40 ? `${v.slice(0, 20)}…(${v.length})` : v)));
  return {
    operation,
    method,
    description: `${operation.api} ${method} ${target.slice(0, 160)} (${idKind} ID) from ${stranger ? `stranger ${stranger.name}` : 'its sender'} ${summary.join(' ')}`,
    expectation,
    malformed,
    owed,
    request: () => ({
      method,
      target,
      headers: [...headers.entries(), ...rawHeaders],
      body: padded(encode(body, text), padding),
    }),
  };
}

/** With `pick`, one of the scheme's participants with no right to send the message; without, nobody. */
export function strangerTo(message: Message, scheme: FuzzScheme, pick: number | undefined): SimulatedDfsp | undefined {
  if (pick === undefined) return undefined;
  const rightful = message.senders ?? [message.source];
  const strangers = [scheme.payer, scheme.payee, scheme.stranger, scheme.pisp].filter((dfsp) => !rightful.includes(dfsp.name));
  return strangers[pick % strangers.length];
}

/** The name an impostor gives in FSPIOP-Source or FSPIOP-Destination: undefined leaves the header out. */
export function impostorName(as: Impostor | 'payee' | 'stranger', scheme: FuzzScheme): string | undefined {
  const names: Record<Exclude<Impostor, 'absent' | 'empty'> | 'payee' | 'stranger', string> = {
    unknown: uniqueName('nobody'),
    hub: HUB_ID,
    authService: AUTH_SERVICE,
    inactive: scheme.inactive,
    payee: scheme.payee.name,
    stranger: scheme.stranger.name,
  };
  return as === 'absent' ? undefined : as === 'empty' ? '' : names[as];
}

/** The places of a body a mutation can reach, as key paths: every node but the root (objects' own included for `extra`). */
function nodesOf(value: unknown, at: Array<string | number> = []): Array<Array<string | number>> {
  if (value === null || typeof value !== 'object' || value instanceof Nested) return [];
  const entries: Array<[string | number, unknown]> = Array.isArray(value) ? value.map((item, index) => [index, item]) : Object.entries(value);
  return entries.flatMap(([key, child]) => [[...at, key], ...nodesOf(child, [...at, key])]);
}

function nodeAt(body: unknown, path: Array<string | number>): any {
  return path.reduce<any>((node, key) => node[key], body);
}

const parentOf = (body: unknown, path: Array<string | number>): Record<string | number, unknown> => nodeAt(body, path.slice(0, -1));
const isObject = (node: unknown) => node !== null && typeof node === 'object' && !Array.isArray(node) && !(node instanceof Nested);

/** An own property, even one named __proto__, which plain assignment would take for the prototype. */
function setOwn(target: Record<string | number, unknown>, key: string | number, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

export function mutateBody(body: unknown, mutation: Extract<Mutation, { kind: 'drop' | 'retype' | 'extra' }>): unknown {
  if (body === undefined) return body;
  if (mutation.kind === 'extra') {
    const objects = [[], ...nodesOf(body)].filter((path) => isObject(nodeAt(body, path)));
    setOwn(nodeAt(body, objects[mutation.at % objects.length]), mutation.key, mutation.value);
    return body;
  }
  const nodes = nodesOf(body);
  if (nodes.length === 0) return body;
  const path = nodes[mutation.at % nodes.length];
  const parent = parentOf(body, path);
  const key = path[path.length - 1];
  if (mutation.kind === 'retype') setOwn(parent, key, mutation.value);
  else if (Array.isArray(parent)) parent.splice(key as number, 1);
  else delete parent[key];
  return body;
}

/** A deep array stands in for validation as a shallow one: the schemas tell them apart by type alone. */
function forValidation(value: unknown): unknown {
  if (value instanceof Nested) return [[[]]];
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map(forValidation);
  const copy: Record<string, unknown> = {};
  for (const [key, child] of Object.entries(value)) setOwn(copy, key, forValidation(child));
  return copy;
}

/** Why the document refuses the body, or undefined if it is valid. */
function bodyProblem(body: unknown, operation: Operation): string | undefined {
  if (body === undefined) return 'no body';
  const validate = operation.validBody!;
  if (validate(forValidation(body))) return undefined;
  const [error] = validate.errors ?? [];
  return `body${error?.instancePath ?? ''} ${error?.message ?? 'invalid'}`;
}

function textProblem(text: TextForm, body: unknown, operation: Operation): string | undefined {
  switch (text.form) {
    case 'invalidUtf8':
      return 'body not UTF-8';
    case 'utf16':
      return 'body in UTF-16';
    case 'empty':
      return 'no body';
    default: {
      const written = encode(body, text).toString('utf-8');
      if (written.trim() === '') return 'no body';
      try {
        return bodyProblem(JSON.parse(written), operation);
      } catch {
        return 'body not JSON';
      }
    }
  }
}

const NESTED = /"\\u0000nested:(\d+)\\u0000"/g;
/** Marks the string value whose bytes are spoiled: JSON writes it escaped, so it cannot clash with the text around it. */
const SPOILED = '\u0001spoiled\u0001';
const SPOILED_TEXT = JSON.stringify(SPOILED).slice(1, -1);

function encode(body: unknown, text: TextForm | undefined): Buffer {
  if (text?.form === 'garbage') return Buffer.from(text.text);
  if (text?.form === 'topLevel') return Buffer.from(text.json);
  if (text?.form === 'empty' || body === undefined) return Buffer.alloc(0);
  if (text?.form === 'invalidUtf8') {
    const strings = nodesOf(body).filter((path) => typeof nodeAt(body, path) === 'string');
    let written = write(body);
    if (strings.length > 0) {
      // Marked in place for writing, then restored: a copy would lose the Nested values.
      const path = strings[text.at % strings.length];
      const [parent, key] = [parentOf(body, path), path[path.length - 1]];
      const value = parent[key];
      setOwn(parent, key, SPOILED + String(value));
      written = write(body);
      setOwn(parent, key, value);
    }
    const [before, after] = written.split(SPOILED_TEXT);
    return after === undefined
      ? Buffer.concat([Buffer.from(text.bytes), Buffer.from(before)])
      : Buffer.concat([Buffer.from(before), Buffer.from(text.bytes), Buffer.from(after)]);
  }
  const written = write(body);
  if (text?.form === 'truncated') return Buffer.from(written.slice(0, text.at % Math.max(written.length, 1)));
  if (text?.form === 'utf16') return Buffer.from(`\ufeff${written}`, 'utf16le');
  return Buffer.from(written);
}

/** JSON text of a body, deep arrays written out as text. */
function write(body: unknown): string {
  return JSON.stringify(body, (_, value) => (value instanceof Nested ? `\u0000nested:${value.depth}\u0000` : value)).replace(
    NESTED,
    (_, depth: string) => '['.repeat(Number(depth)) + ']'.repeat(Number(depth)),
  );
}

/** The body followed by whitespace up to `size` bytes: still the same JSON, only larger. */
function padded(body: Buffer, size: number): Buffer {
  return body.length === 0 || size <= body.length ? body : Buffer.concat([body, Buffer.alloc(size - body.length, 0x20)]);
}
