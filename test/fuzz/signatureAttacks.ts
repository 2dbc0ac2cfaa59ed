import fc from 'fast-check';
import type { Operation } from './documents';
import { forgedSignature, type Impostor } from './mutations';

/** The headers a Mojaloop FSPIOP-Signature covers beside the body. */
export type SignedHeader = 'fspiop-source' | 'fspiop-uri' | 'fspiop-http-method' | 'fspiop-destination' | 'date';

/**
 * How a message's FSPIOP-Signature fails to hold. `at` picks, modulo their number, among the choices an attack has
 * (whose key, which node of the body, which other request), so that it is generated without the message.
 */
export type Attack =
  /** No FSPIOP-Signature; with `named`, FSPIOP-URI and FSPIOP-HTTP-Method are still sent. */
  | { kind: 'missing'; named: boolean }
  | { kind: 'garbage'; value: string }
  /** A valid signature with the key of another participant, or of nobody the hub knows. */
  | { kind: 'wrongKey'; whose: 'participant' | 'stranger'; at: number }
  /** Signed, then the body changed: a node dropped, a value replaced, a property added. */
  | { kind: 'alteredBody'; change: 'drop' | 'retype' | 'extra'; at: number }
  /**
   * Signed with a header other than the message's: `differs`, another value signed than sent; `elsewhere`, header and
   * signature agree on another request than this one; `unsent`, signed but left out of the message; `unsigned`, in
   * the message but left out of the signature.
   */
  | { kind: 'signedHeader'; header: SignedHeader; form: 'differs' | 'elsewhere' | 'unsent' | 'unsigned'; at: number }
  /** Signed with another algorithm than RS256: none, HS256 keyed with the sender's public key, RS512 or PS256 with its own key. */
  | { kind: 'algorithm'; alg: 'none' | 'HS256' | 'RS512' | 'PS256' }
  /** The sender's genuine signature of another, earlier message of its own, sent with that message's Date. */
  | { kind: 'replay'; at: number };

/**
 * A fault the gateway finds before the signature (the FSPIOP headers, then the body's reading), so the message is
 * refused for it instead: the check order of participantMessage.
 */
export type EarlierFault =
  | { kind: 'source'; as: Impostor }
  | { kind: 'date'; value: 'absent' | 'notADate' }
  | { kind: 'contentType'; value: 'absent' | 'notFspiop' | 'unsupportedVersion' }
  | { kind: 'accept' }
  | { kind: 'body'; form: 'notJson' | 'tooDeep' };

/** A fault the route finds after the signature: the signature's refusal still comes first. */
export type LaterFault = { kind: 'path'; at: number; value: string } | { kind: 'schema' };

export interface SignatureCase {
  operation: Operation;
  idKind: number;
  /** Absent: its rightful sender sends it; else a participant with no right to. */
  stranger?: number;
  attack: Attack;
  earlier?: EarlierFault;
  later?: LaterFault;
}

// FSPIOP-URI and FSPIOP-HTTP-Method twice as often as the others: each can go wrong in three ways.
const signedHeaderAttack: fc.Arbitrary<Attack> = fc.oneof(
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('signedHeader' as const),
      header: fc.constant('fspiop-source' as const),
      form: fc.constant('differs' as const),
      at: fc.nat(),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('signedHeader' as const),
      header: fc.constantFrom('fspiop-uri' as const, 'fspiop-http-method' as const),
      form: fc.constantFrom('differs' as const, 'elsewhere' as const, 'unsent' as const),
      at: fc.nat(),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('signedHeader' as const),
      header: fc.constant('fspiop-destination' as const),
      form: fc.constantFrom('differs' as const, 'unsigned' as const),
      at: fc.nat(),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('signedHeader' as const),
      header: fc.constant('date' as const),
      form: fc.constant('differs' as const),
      at: fc.nat(),
    }),
  },
);

const attack: fc.Arbitrary<Attack> = fc.oneof(
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('missing' as const), named: fc.boolean() }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('garbage' as const), value: forgedSignature }) },
  {
    weight: 2,
    arbitrary: fc.record({ kind: fc.constant('wrongKey' as const), whose: fc.constantFrom('participant' as const, 'stranger' as const), at: fc.nat() }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('alteredBody' as const),
      change: fc.constantFrom('drop' as const, 'retype' as const, 'extra' as const),
      at: fc.nat(),
    }),
  },
  { weight: 4, arbitrary: signedHeaderAttack },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('algorithm' as const),
      alg: fc.constantFrom('none' as const, 'HS256' as const, 'RS512' as const, 'PS256' as const),
    }),
  },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('replay' as const), at: fc.nat() }) },
);

const earlierFault: fc.Arbitrary<EarlierFault> = fc.oneof(
  fc.record({ kind: fc.constant('source' as const), as: fc.constantFrom<Impostor>('unknown', 'hub', 'authService', 'inactive', 'absent', 'empty') }),
  fc.record({ kind: fc.constant('date' as const), value: fc.constantFrom('absent' as const, 'notADate' as const) }),
  fc.record({ kind: fc.constant('contentType' as const), value: fc.constantFrom('absent' as const, 'notFspiop' as const, 'unsupportedVersion' as const) }),
  fc.constant({ kind: 'accept' as const }),
  fc.record({ kind: fc.constant('body' as const), form: fc.constantFrom('notJson' as const, 'tooDeep' as const) }),
);

const laterFault: fc.Arbitrary<LaterFault> = fc.oneof(
  fc.record({ kind: fc.constant('path' as const), at: fc.nat(), value: fc.constantFrom('%ZZ', 'not-an-id', 'Z'.repeat(200)) }),
  fc.constant({ kind: 'schema' as const }),
);

/** Undefined, but one time in `oneIn` a value of `arbitrary`. */
const sometimes = <T>(arbitrary: fc.Arbitrary<T>, oneIn: number): fc.Arbitrary<T | undefined> =>
  fc.oneof({ weight: oneIn - 1, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary });

/**
 * Operations with a body that the switch sends and takes from no participant, which it answers 405 before reading
 * anything: the payee's notification of a transfer's final state (Document 2, PATCH /transfers/{ID}).
 */
const SENT_BY_THE_SWITCH_ONLY = ['PATCH /transfers/{ID}'];

/**
 * Cases for the operations that take a body from participants: each with a signature that does not hold, now and
 * then another fault.
 */
export function signatureCaseOf(operations: Operation[]): fc.Arbitrary<SignatureCase> {
  return fc.record({
    operation: fc.constantFrom(...operations.filter((operation) => operation.validBody && !SENT_BY_THE_SWITCH_ONLY.includes(operation.key))),
    idKind: fc.nat(),
    stranger: sometimes(fc.nat(), 2),
    attack,
    earlier: sometimes(earlierFault, 5),
    later: sometimes(laterFault, 6),
  });
}
