import crypto, { type KeyObject } from 'node:crypto';
import { sign } from '../../activities/shared/platform/jws';
import { fspiopHeadersOf } from '../helpers/switchHarness';
import { impostorName, mutateBody, strangerTo, type PreparedCase, type Refusal } from './cases';
import type { Operation } from './documents';
import type { FuzzScheme } from './fixture';
import { idKindsOf, pathWith, sampleOf } from './samples';
import type { SchemeKeys } from './schemeKeys';
import type { Attack, EarlierFault, SignatureCase } from './signatureAttacks';

/** A case whose signature does not hold, with what was done to it in a few words, for the run's tally. */
export interface SignedCase extends PreparedCase {
  attack: string;
  earlier?: string;
  later?: string;
}

/** Document 2's answer to a signature that does not hold: 400, Invalid signature. */
const INVALID_SIGNATURE: Refusal = { status: 400, code: '3105' };

const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];
const pick = <T>(list: T[], at: number): T => list[at % list.length];

/**
 * The case as sent: the operation's valid message from its sender (or a stranger), signed as the attack says, then
 * spoiled by its faults; owed 3105, or the refusal of a fault found before the signature.
 */
export async function prepareSigned(spec: SignatureCase, scheme: FuzzScheme, keys: SchemeKeys, operations: Operation[]): Promise<SignedCase> {
  const { operation, attack, earlier, later } = spec;
  const kinds = idKindsOf(operation, scheme);
  const idKind = pick(kinds, spec.idKind);
  const message = sampleOf(operation, scheme, idKind);
  if (!message?.source) throw new Error(`no sample message with a source for ${operation.api} ${operation.key}`);
  const stranger = strangerTo(message, scheme, spec.stranger);
  const source = stranger?.name ?? message.source;
  const { method } = operation;

  const params = { ...message.params };
  const names = Object.keys(params);
  const spoiledPath = later?.kind === 'path' && names.length > 0;
  if (spoiledPath) params[pick(names, later.at)] = later.value;
  const target = pathWith(operation, params) + (message.query ? `?${message.query}` : '');
  // Every body schema is an object's: an array holding the valid body is refused by each.
  const body = later?.kind === 'schema' ? [message.body] : message.body;

  const sent = new Map(
    Object.entries({
      ...fspiopHeadersOf(method, target, { source, destination: message.destination }),
      'fspiop-uri': target,
      'fspiop-http-method': method,
    }),
  );
  const signature = await attacked(attack, { sent, body, source, target, method }, { keys, scheme, operations });
  if (signature.value !== undefined) sent.set('fspiop-signature', signature.value);
  const written = signature.text ?? JSON.stringify(body);
  const fault = earlier && earlierFault(earlier, sent, written, method, scheme);
  const text = fault?.text ?? written;
  const described = {
    attack: describeAttack(attack),
    earlier: fault?.refusal && describeEarlier(earlier!),
    later: later?.kind === 'schema' ? 'a body its schema refuses' : spoiledPath ? 'a path parameter spoiled' : undefined,
  };
  return {
    operation,
    method,
    description: `${operation.api} ${method} ${target.slice(0, 160)} (${idKind} ID) from ${stranger ? `stranger ${stranger.name}` : 'its sender'}: ${[
      described.attack,
      described.earlier && `${described.earlier} first`,
      described.later && `${described.later} after`,
    ]
      .filter(Boolean)
      .join(', ')}`,
    expectation: 'refused',
    malformed: [described.attack, described.earlier, described.later].filter((what): what is string => what !== undefined),
    refusal: fault?.refusal ?? INVALID_SIGNATURE,
    ...described,
    request: () => ({ method, target, headers: [...sent.entries()], body: Buffer.from(text) }),
  };
}

/**
 * Signs the message as the attack says, changing its headers where the attack is in them: the FSPIOP-Signature to
 * send, if any, and the body text sent when it is not the one signed.
 */
async function attacked(
  attack: Attack,
  { sent, body, source, target, method }: { sent: Map<string, string>; body: unknown; source: string; target: string; method: string },
  { keys, scheme, operations }: { keys: SchemeKeys; scheme: FuzzScheme; operations: Operation[] },
): Promise<{ value?: string; text?: string }> {
  const signedText = JSON.stringify(body);
  const signed: Record<string, string | undefined> = Object.fromEntries(sent);
  const others = keys.names.filter((name) => name !== source);
  const own = keys.privateKeyOf(source);
  switch (attack.kind) {
    case 'missing':
      if (!attack.named) ['fspiop-uri', 'fspiop-http-method'].forEach((name) => sent.delete(name));
      return {};
    case 'garbage':
      return { value: attack.value };
    case 'wrongKey':
      return { value: await sign(signed, signedText, attack.whose === 'stranger' ? keys.strangerKey : keys.privateKeyOf(pick(others, attack.at))) };
    case 'alteredBody': {
      const text = JSON.stringify(mutateBody(structuredClone(body), alteration(attack)));
      if (text === signedText) throw new Error(`${attack.change} left the body as it was signed`);
      return { value: await sign(signed, signedText, own), text };
    }
    case 'signedHeader':
      forgeHeader(attack, sent, signed, { target, method, others });
      return { value: await sign(signed, signedText, own) };
    case 'algorithm':
      return { value: withAlgorithm(await sign(signed, signedText, own), attack.alg, signedText, own, keys.publicPemOf(source)) };
    case 'replay': {
      const { value, date } = await replayed(attack.at, source, own, scheme, operations, `${method} ${target} ${signedText}`);
      sent.set('date', date);
      return { value };
    }
  }
}

function alteration(attack: Extract<Attack, { kind: 'alteredBody' }>): Parameters<typeof mutateBody>[1] {
  if (attack.change === 'drop') return { kind: 'drop', at: attack.at };
  if (attack.change === 'retype') return { kind: 'retype', at: attack.at, value: { altered: true } };
  return { kind: 'extra', at: attack.at, key: 'altered', value: true };
}

/** Makes the signed and the sent value of one header part ways, as the attack says. */
function forgeHeader(
  { header, form, at }: Extract<Attack, { kind: 'signedHeader' }>,
  sent: Map<string, string>,
  signed: Record<string, string | undefined>,
  { target, method, others }: { target: string; method: string; others: string[] },
): void {
  switch (header) {
    case 'fspiop-source':
      signed[header] = pick(others, at);
      return;
    case 'date':
      signed.date = new Date(Date.now() - 3_600_000).toUTCString();
      return;
    case 'fspiop-destination':
      if (form === 'differs')
        signed[header] = pick(
          others.filter((name) => name !== sent.get(header)),
          at,
        );
      else {
        sent.set(header, sent.get(header) ?? pick(others, at));
        delete signed[header];
      }
      return;
    default: {
      const elsewhere =
        header === 'fspiop-uri'
          ? pick(
              ['/transfers', '/quotes', `${target}/error`, `/transfers/${crypto.randomUUID()}`].filter((other) => other !== target),
              at,
            )
          : pick(
              METHODS.filter((other) => other !== method),
              at,
            );
      if (form === 'unsent') sent.delete(header);
      else signed[header] = elsewhere;
      if (form === 'elsewhere') sent.set(header, elsewhere);
    }
  }
}

/**
 * The sender's genuine signature of another message of its own, sent a minute earlier, and that message's Date, which
 * the replay copies: the first operation from `at` whose message differs from this one in method, path or body.
 */
async function replayed(
  at: number,
  source: string,
  key: KeyObject,
  scheme: FuzzScheme,
  operations: Operation[],
  ours: string,
): Promise<{ value: string; date: string }> {
  const candidates = operations.filter((other) => other.validBody);
  const date = new Date(Date.now() - 60_000).toUTCString();
  for (let next = 0; next < candidates.length; next++) {
    const operation = pick(candidates, at + next);
    const other = sampleOf(operation, scheme, idKindsOf(operation, scheme)[0])!;
    const target = pathWith(operation, other.params);
    const text = JSON.stringify(other.body);
    if (`${operation.method} ${target} ${text}` === ours) continue;
    const headers = fspiopHeadersOf(operation.method, target, { source, destination: other.destination, headers: { date } });
    return { value: await sign({ ...headers, 'fspiop-uri': target, 'fspiop-http-method': operation.method }, text, key), date };
  }
  throw new Error(`no message differs from ${ours}`);
}

/** The signature as made with `alg` over the same protected header and body. */
function withAlgorithm(signature: string, alg: Extract<Attack, { kind: 'algorithm' }>['alg'], text: string, key: KeyObject, publicPem: string): string {
  const { protectedHeader } = JSON.parse(signature) as { protectedHeader: string };
  const header = { ...JSON.parse(Buffer.from(protectedHeader, 'base64url').toString('utf-8')), alg };
  const encoded = Buffer.from(JSON.stringify(header)).toString('base64url');
  const input = Buffer.from(`${encoded}.${Buffer.from(text).toString('base64url')}`);
  const made = {
    none: () => '',
    // The classic confusion: a verifier that takes the header's word would key HMAC with the public key it holds.
    HS256: () => crypto.createHmac('sha256', publicPem).update(input).digest('base64url'),
    RS512: () => crypto.sign('sha512', input, key).toString('base64url'),
    PS256: () => crypto.sign('sha256', input, { key, padding: crypto.constants.RSA_PKCS1_PSS_PADDING, saltLength: 32 }).toString('base64url'),
  };
  return JSON.stringify({ signature: made[alg](), protectedHeader: encoded });
}

/**
 * Spoils the sent message with the fault and says how the gateway refuses it before reading the signature; no refusal
 * when the fault is none for this message (a callback's Accept is not read).
 */
function earlierFault(fault: EarlierFault, sent: Map<string, string>, text: string, method: string, scheme: FuzzScheme): { text?: string; refusal?: Refusal } {
  const refused = (code: string, status = 400) => ({ refusal: { status, code } });
  switch (fault.kind) {
    case 'source': {
      const name = impostorName(fault.as, scheme);
      if (name === undefined) sent.delete('fspiop-source');
      else sent.set('fspiop-source', name);
      if (fault.as === 'absent' || fault.as === 'empty') return refused('3102');
      return fault.as === 'hub' || fault.as === 'authService' ? refused('3100') : refused('3200');
    }
    case 'date':
      if (fault.value === 'absent') sent.delete('date');
      else sent.set('date', 'yesterday');
      return refused(fault.value === 'absent' ? '3102' : '3101');
    case 'contentType': {
      const contentType = sent.get('content-type')!;
      if (fault.value === 'absent') sent.delete('content-type');
      else sent.set('content-type', fault.value === 'notFspiop' ? 'application/json' : contentType.replace(/version=[\d.]+/, 'version=9.9'));
      return fault.value === 'unsupportedVersion' ? refused('3001', 406) : refused(fault.value === 'absent' ? '3102' : '3101');
    }
    case 'accept':
      sent.delete('accept');
      return method === 'PUT' || method === 'PATCH' ? {} : refused('3102');
    case 'body':
      return fault.form === 'notJson'
        ? { text: text.slice(0, -1), ...refused('3101') }
        : { text: `${'['.repeat(40)}${text}${']'.repeat(40)}`, ...refused('3100') };
  }
}

function describeAttack(attack: Attack): string {
  switch (attack.kind) {
    case 'missing':
      return attack.named ? 'no signature (FSPIOP-URI and -HTTP-Method sent)' : 'no signature';
    case 'garbage':
      return 'a forged signature';
    case 'wrongKey':
      return attack.whose === 'stranger' ? "a stranger key's signature" : "another participant's signature";
    case 'alteredBody':
      return `body changed after signing (${attack.change})`;
    case 'signedHeader':
      return `${attack.header} ${attack.form}`;
    case 'algorithm':
      return `alg ${attack.alg}`;
    case 'replay':
      return "a signature of another of the sender's messages";
  }
}

function describeEarlier(fault: EarlierFault): string {
  switch (fault.kind) {
    case 'source':
      return `FSPIOP-Source ${fault.as}`;
    case 'date':
      return `Date ${fault.value}`;
    case 'contentType':
      return `Content-Type ${fault.value}`;
    case 'accept':
      return 'no Accept';
    case 'body':
      return `body ${fault.form}`;
  }
}
