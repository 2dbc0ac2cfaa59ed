import fc from 'fast-check';
import type { Api } from './documents';

/** An array nested `depth` deep: written as text, since building it as a value would overflow the stack. */
export class Nested {
  constructor(readonly depth: number) {}
}

/** A participant a message may claim to come from or go to, other than its rightful one. */
export type Impostor = 'unknown' | 'hub' | 'authService' | 'inactive' | 'absent' | 'empty';

/** How a body's text is spoiled as a whole. */
export type TextForm =
  | { form: 'garbage'; text: string }
  | { form: 'truncated'; at: number }
  | { form: 'topLevel'; json: string }
  | { form: 'invalidUtf8'; at: number; bytes: readonly number[] }
  | { form: 'utf16' }
  | { form: 'empty' };

/**
 * One way to spoil a valid message. `at` picks, modulo their number, one of the places the mutation can apply to (a
 * node of the body, a path parameter, a method the path does not offer), so that a mutation is generated without the
 * message and shrinks as a plain number.
 */
export type Mutation =
  | { kind: 'header'; name: string; value: string | undefined }
  | { kind: 'source'; as: Impostor }
  | { kind: 'destination'; as: Impostor | 'payee' | 'stranger' }
  | { kind: 'signature'; value: string }
  | { kind: 'oversizeHeader'; name: string; bytes: number }
  | { kind: 'controlByteInHeader'; byte: number }
  | { kind: 'drop'; at: number }
  | { kind: 'retype'; at: number; value: unknown }
  | { kind: 'extra'; at: number; key: string; value: unknown }
  | { kind: 'text'; text: TextForm }
  | { kind: 'padding'; bytes: number }
  | { kind: 'segment'; at: number; value: string }
  | { kind: 'method'; at: number }
  | { kind: 'foreignAccount' }
  | { kind: 'unknownParticipant' };

/** Values of every JSON type and none, very long and very deep among them, to put where a body has something else. */
const wrongValue: fc.Arbitrary<unknown> = fc.oneof(
  fc.constant(null),
  fc.boolean(),
  fc.integer(),
  fc.double(),
  fc.string({ maxLength: 40 }),
  fc.constant(''),
  fc.array(fc.oneof(fc.integer(), fc.string({ maxLength: 5 })), { maxLength: 3 }),
  fc.dictionary(fc.string({ maxLength: 8 }), fc.oneof(fc.integer(), fc.string({ maxLength: 8 })), { maxKeys: 3 }),
  fc.integer({ min: 10_000, max: 300_000 }).map((length) => 'x'.repeat(length)),
  fc.constantFrom(100, 10_000, 300_000).map((depth) => new Nested(depth)),
);

/** Keys a body does not define, some of them names JavaScript gives a meaning to. */
const extraKey = fc.oneof(fc.constantFrom('__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty', '', '$ref'), fc.string({ maxLength: 20 }));

/** Values no version of the header's rule accepts: the wrong media type, resource or version, or anything at all. */
const MEDIA_TYPES = [
  'application/json',
  'text/plain',
  '*/*',
  'application/vnd.interoperability.notaresource+json;version=1.1',
  'application/vnd.interoperability.transfers+json;version=9.9',
  'application/vnd.interoperability.thirdparty+json;version=abc',
  'application/vnd.interoperability.quotes+json;version=1.1;charset=utf-16',
  '',
];
const DATES = ['', 'yesterday', '2024-01-01T00:00:00.000Z', '1700000000000', 'Mon, 32 Foo 2020 25:61:61 GMT'];

const headerMutation: fc.Arbitrary<Mutation> = fc.oneof(
  fc.record({
    kind: fc.constant('header' as const),
    name: fc.constantFrom('content-type', 'accept'),
    value: fc.option(fc.oneof(fc.constantFrom(...MEDIA_TYPES), fc.string()), { nil: undefined }),
  }),
  fc.record({
    kind: fc.constant('header' as const),
    name: fc.constant('date'),
    value: fc.option(fc.oneof(fc.constantFrom(...DATES), fc.string()), { nil: undefined }),
  }),
  fc.record({
    kind: fc.constant('header' as const),
    name: fc.constantFrom('fspiop-uri', 'fspiop-http-method', 'fspiop-encryption', 'x-forwarded-for', 'traceparent', 'content-encoding', 'x-fuzz'),
    value: fc.option(fc.string(), { nil: undefined }),
  }),
);

const impostor = fc.constantFrom<Impostor>('unknown', 'hub', 'authService', 'inactive', 'absent', 'empty');

/**
 * FSPIOP-Signature values a DFSP could forge: not JWS at all, Mojaloop's JSON form with random parts, a compact JWS of
 * random bytes, a very long one. Where the sender's signatures are not validated none may cause a 5xx; where they are,
 * each must be refused (3105).
 */
export const forgedSignature: fc.Arbitrary<string> = fc.oneof(
  fc.string(),
  fc
    .tuple(fc.uint8Array({ minLength: 16, maxLength: 64 }), fc.uint8Array({ minLength: 64, maxLength: 256 }))
    .map(([header, signature]) =>
      JSON.stringify({ signature: Buffer.from(signature).toString('base64url'), protectedHeader: Buffer.from(header).toString('base64url') }),
    ),
  fc
    .array(fc.uint8Array({ minLength: 1, maxLength: 96 }), { minLength: 3, maxLength: 3 })
    .map((parts) => parts.map((p) => Buffer.from(p).toString('base64url')).join('.')),
  fc.integer({ min: 8_000, max: 60_000 }).map((length) => 'e'.repeat(length)),
);

const bodyMutation: fc.Arbitrary<Mutation> = fc.oneof(
  { weight: 4, arbitrary: fc.record({ kind: fc.constant('drop' as const), at: fc.nat() }) },
  { weight: 5, arbitrary: fc.record({ kind: fc.constant('retype' as const), at: fc.nat(), value: wrongValue }) },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('extra' as const), at: fc.nat(), key: extraKey, value: wrongValue }) },
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant('text' as const),
      text: fc.oneof(
        fc.record({
          form: fc.constant('garbage' as const),
          text: fc.oneof(fc.string(), fc.constantFrom('<xml/>', 'undefined', "{'a':1}", '{', 'NaN', '{"a":1}{"b":2}')),
        }),
        fc.record({ form: fc.constant('truncated' as const), at: fc.nat() }),
        fc.record({ form: fc.constant('topLevel' as const), json: fc.constantFrom('[]', 'null', '"text"', '42', 'true', '[{}]', '{}') }),
        fc.record({
          form: fc.constant('invalidUtf8' as const),
          at: fc.nat(),
          // A lone continuation byte, an overlong encoding, a UTF-16 surrogate, a truncated sequence, bytes never valid.
          bytes: fc.constantFrom([0x80], [0xc0, 0xaf], [0xed, 0xa0, 0x80], [0xe2, 0x82], [0xff, 0xfe], [0xc3, 0x28]),
        }),
        fc.constant({ form: 'utf16' as const }),
        fc.constant({ form: 'empty' as const }),
      ),
    }),
  },
  // Over the 5 MiB the API allows, or under it yet larger than what a conversation's history keeps.
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('padding' as const),
      bytes: fc.oneof(fc.integer({ min: 5_242_881, max: 5_500_000 }), fc.integer({ min: 1_600_000, max: 5_000_000 })),
    }),
  },
);

const transportMutation: fc.Arbitrary<Mutation> = fc.oneof(
  fc.record({
    kind: fc.constant('oversizeHeader' as const),
    name: fc.constantFrom('fspiop-signature', 'x-fuzz', 'date'),
    bytes: fc.integer({ min: 65_537, max: 80_000 }),
  }),
  fc.record({ kind: fc.constant('controlByteInHeader' as const), byte: fc.constantFrom(0x00, 0x01, 0x0d, 0x7f) }),
);

// Percent-encoding that does not decode, or decodes to no UTF-8; longer than any identifier of the APIs may be.
const badSegment = fc.oneof(
  fc.constantFrom('%ZZ', '%C3%28', '%'),
  fc.integer({ min: 129, max: 400 }).map((length) => 'Z'.repeat(length)),
);

const pathMutation: fc.Arbitrary<Mutation> = fc.oneof(
  fc.record({ kind: fc.constant('segment' as const), at: fc.nat(), value: badSegment }),
  fc.record({ kind: fc.constant('method' as const), at: fc.nat() }),
);

/** The mutations that make sense on an API: the switch's are about who sends what, the admin API's about whose account. */
export function mutationOf(api: Api): fc.Arbitrary<Mutation> {
  if (api === 'admin') {
    return fc.oneof(
      { weight: 8, arbitrary: bodyMutation },
      { weight: 2, arbitrary: pathMutation },
      { weight: 2, arbitrary: fc.constantFrom<Mutation>({ kind: 'foreignAccount' }, { kind: 'unknownParticipant' }) },
      { weight: 1, arbitrary: headerMutation },
      { weight: 1, arbitrary: transportMutation },
    );
  }
  return fc.oneof(
    { weight: 8, arbitrary: bodyMutation },
    { weight: 3, arbitrary: headerMutation },
    { weight: 2, arbitrary: fc.record({ kind: fc.constant('source' as const), as: impostor }) },
    {
      weight: 1,
      arbitrary: fc.record({ kind: fc.constant('destination' as const), as: fc.oneof(impostor, fc.constantFrom('payee' as const, 'stranger' as const)) }),
    },
    { weight: 1, arbitrary: fc.record({ kind: fc.constant('signature' as const), value: forgedSignature }) },
    { weight: 2, arbitrary: pathMutation },
    { weight: 1, arbitrary: transportMutation },
  );
}
