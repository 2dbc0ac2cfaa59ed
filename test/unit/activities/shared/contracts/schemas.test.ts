import crypto from 'node:crypto';
import test from 'ava';
import fc from 'fast-check';
import type { TransfersPostRequest } from '../../../../../activities/shared/contracts/bodies';
import { instantOf, parseExpiration } from '../../../../../activities/shared/contracts/expiry';
import { Decimal } from '../../../../../activities/shared/contracts/money';
import { pathId, tagOf, validateFspiop, validateThirdparty, validateThirdpartyOneOf } from '../../../../../activities/shared/contracts/schemas';
import { HttpError } from '../../../../../activities/shared/platform/httpError';
import { quoteBody, transferBody, ulid } from '../../../../helpers/fspiopBodies';

// Bodies, path IDs and queries held to the published Mojaloop OpenAPI documents (FSPIOP v1.1, third-party v1.0),
// refused with the code Mojaloop's services give each kind of violation.

/** The ErrorInformation a value is refused with, or undefined when it is taken. */
function refusal(validate: () => unknown): { errorCode: string; errorDescription: string } | undefined {
  try {
    validate();
    return undefined;
  } catch (error) {
    if (error instanceof HttpError && error.status === 400) return error.errorInformation;
    throw error;
  }
}

const codeOf = (validate: () => unknown) => refusal(validate)?.errorCode;

test('a well-formed POST /transfers and POST /quotes are taken as sent', (t) => {
  const transfer = transferBody('payerfsp', 'payeefsp', '100.25');
  t.is(validateFspiop('TransfersPostRequest', transfer), transfer);
  t.is(
    codeOf(() => validateFspiop('QuotesPostRequest', quoteBody('payerfsp', 'payeefsp', '5'))),
    undefined,
  );
});

test('a body missing a mandatory element is 3102, a wrongly typed value 3101, an element a schema forbids 3103', (t) => {
  const { condition: _omitted, ...withoutCondition } = transferBody('payerfsp', 'payeefsp', '1');
  t.deepEqual(
    refusal(() => validateFspiop('TransfersPostRequest', withoutCondition)),
    {
      errorCode: '3102',
      errorDescription: "Missing mandatory element - /requestBody must have required property 'condition'",
    },
  );
  t.is(
    codeOf(() => validateFspiop('TransfersPostRequest', { ...transferBody('payerfsp', 'payeefsp', '1'), note: 'x' })),
    undefined,
    'FSPIOP v1.1 forbids none',
  );
  const otp = { scopes: [{ address: 'dfspa.username.5678', actions: ['ACCOUNTS_TRANSFER'] }], authChannels: ['OTP'] };
  t.is(
    codeOf(() => validateThirdparty('ConsentRequestsIDPutResponseOTP', otp)),
    undefined,
  );
  t.deepEqual(
    refusal(() => validateThirdparty('ConsentRequestsIDPutResponseOTP', { ...otp, note: 'x' })),
    {
      errorCode: '3103',
      errorDescription: 'Too many elements - /requestBody must NOT have additional properties',
    },
  );
  t.is(
    codeOf(() => validateFspiop('TransfersPostRequest', { ...transferBody('payerfsp', 'payeefsp', '1'), amount: { amount: 1, currency: 'USD' } })),
    '3101',
  );
  t.deepEqual(
    refusal(() => validateFspiop('TransfersPostRequest', undefined)),
    {
      errorCode: '3102',
      errorDescription: 'Missing mandatory element - body is required',
    },
  );
});

test('an Amount has at most 18 integer digits and 4 decimals, without leading or trailing zeros; any other is 3100', (t) => {
  t.deepEqual(
    refusal(() => validateFspiop('Amount', '1.00001', 'body')),
    {
      errorCode: '3100',
      errorDescription: 'Generic validation error - /requestBody must match pattern "^([0]|([1-9][0-9]{0,17}))([.][0-9]{0,3}[1-9])?$"',
    },
  );
  for (const amount of ['0', '1', '0.5', '123456789012345678.1234'])
    t.is(
      codeOf(() => validateFspiop('Amount', amount)),
      undefined,
      amount,
    );
  for (const amount of ['01', '1.10', '1.', '-1', '1e3', '1234567890123456789'])
    t.is(
      codeOf(() => validateFspiop('Amount', amount)),
      '3100',
      amount,
    );
  // Any amount of the ledger's range, written as short as it goes, is an Amount; one more decimal and it is not.
  const units = fc.bigInt({ min: 0n, max: 10n ** 22n - 1n });
  t.notThrows(() =>
    fc.assert(
      fc.property(units, fc.integer({ min: 1, max: 9 }), (value, digit) => {
        const amount = new Decimal(value.toString()).div(10_000).toFixed();
        if (codeOf(() => validateFspiop('Amount', amount)) !== undefined) throw new Error(`${amount} refused`);
        const finer = new Decimal(`${value * 10n + BigInt(digit)}`).div(100_000).toFixed();
        if (codeOf(() => validateFspiop('Amount', finer)) !== '3100') throw new Error(`${finer} taken`);
      }),
    ),
  );
});

test("a CorrelationId is a lower-case UUID (versions 1-7) or an upper-case ULID, as Mojaloop's hub takes it; a path ID that is neither is 3100", (t) => {
  const v7 = '01890a5d-ac96-774b-bcce-b302099a8057';
  for (const id of [crypto.randomUUID(), v7, ulid(), '7f7d4b6a-4a53-11ee-be56-0242ac120002']) t.is(pathId(id), id, id);
  for (const id of [crypto.randomUUID().toUpperCase(), ulid().toLowerCase(), 'not-a-uuid', 'x'.repeat(2000), '01890a5d-ac96-874b-bcce-b302099a8057']) {
    t.is(
      codeOf(() => pathId(id)),
      '3100',
      id.slice(0, 40),
    );
  }
  t.regex(refusal(() => pathId('not-a-uuid'))?.errorDescription ?? '', /^Generic validation error - path ID must match pattern/);
});

test("an error callback's errorCode sent as a number is taken as its text, as Mojaloop's validator coerces it; one that is no error code is not", (t) => {
  const numeric = { errorInformation: { errorCode: 5100, errorDescription: 'Generic Payee rejection' } };
  t.notThrows(() => validateFspiop('ErrorInformationObject', numeric));
  t.is(numeric.errorInformation.errorCode as unknown, '5100');
  t.is(
    codeOf(() => validateFspiop('ErrorInformationObject', { errorInformation: { errorCode: 51000, errorDescription: 'x' } })),
    '3100',
  );
  t.is(
    codeOf(() => validateFspiop('ErrorInformationObject', { errorInformation: { errorCode: 51.5, errorDescription: 'x' } })),
    '3101',
  );
  t.is(
    codeOf(() => validateFspiop('ErrorInformationObject', { errorInformation: { errorCode: '0100', errorDescription: 'x' } })),
    '3100',
  );
});

test('a field named in FSPIOP-Encryption may hold cipher text in place of what its schema says; every other field is held to its schema', (t) => {
  const cipher = crypto.randomBytes(24).toString('base64url');
  const party = (partyIdType: string, dateOfBirth: string) => ({
    party: { partyIdInfo: { partyIdType, partyIdentifier: '447012345678', fspId: 'payeefsp' }, personalInfo: { dateOfBirth } },
  });
  const encrypted = ['/party/personalInfo/dateOfBirth'];
  t.is(
    codeOf(() => validateFspiop('PartiesTypeIDPutResponse', party('MSISDN', cipher))),
    '3100',
    'in clear, cipher text is no date',
  );
  t.is(
    codeOf(() => validateFspiop('PartiesTypeIDPutResponse', party('MSISDN', cipher), 'body', encrypted)),
    undefined,
  );
  t.is(
    codeOf(() => validateFspiop('PartiesTypeIDPutResponse', party('MSISDN', cipher), 'body', ['/party/personalInfo'])),
    undefined,
    'a field below one named',
  );
  t.is(
    codeOf(() => validateFspiop('PartiesTypeIDPutResponse', party('PHONE', cipher), 'body', encrypted)),
    '3100',
    'the party ID type is not exempt',
  );
  t.is(
    codeOf(() => validateFspiop('PartiesTypeIDPutResponse', party('MSISDN', cipher), 'body', ['/party/personalInfo/date'])),
    '3100',
    'only the field named',
  );
  t.is(
    codeOf(() => validateFspiop('PartiesTypeIDPutResponse', undefined, 'body', encrypted)),
    '3102',
  );
});

test("{Type} of /parties is FSPIOP's PartyIdType; the third-party API's adds CONSENT and THIRD_PARTY_LINK", (t) => {
  for (const type of ['MSISDN', 'EMAIL', 'PERSONAL_ID', 'BUSINESS', 'DEVICE', 'ACCOUNT_ID', 'IBAN', 'ALIAS']) {
    t.is(
      codeOf(() => validateFspiop('PartyIdType', type, 'path Type')),
      undefined,
      type,
    );
    t.is(
      codeOf(() => validateThirdparty('PartyIdType', type, 'path Type')),
      undefined,
      type,
    );
  }
  for (const type of ['CONSENT', 'THIRD_PARTY_LINK']) {
    t.is(
      codeOf(() => validateFspiop('PartyIdType', type, 'path Type')),
      '3100',
      type,
    );
    t.is(
      codeOf(() => validateThirdparty('PartyIdType', type, 'path Type')),
      undefined,
      type,
    );
  }
  t.regex(
    refusal(() => validateFspiop('PartyIdType', 'PHONE', 'path Type'))?.errorDescription ?? '',
    /^Generic validation error - path Type must be equal to one of the allowed values/,
  );
});

test('a currency is an ISO 4217 code the document lists', (t) => {
  t.is(
    codeOf(() => validateFspiop('Currency', 'USD', 'query currency')),
    undefined,
  );
  for (const currency of ['dollars', 'usd', 'XYZ', ''])
    t.is(
      codeOf(() => validateFspiop('Currency', currency, 'query currency')),
      '3100',
      currency,
    );
});

test('a body that is one of several schemas is held to the one its tag names, not to whichever it happens to match', (t) => {
  const pick = (value: unknown) => (tagOf(value, 'credential') === undefined ? 'ConsentsPostRequestPISP' : 'ConsentsPostRequestAUTH');
  const consentId = crypto.randomUUID();
  const scopes = [{ address: 'dfspa.username.5678', actions: ['ACCOUNTS_TRANSFER'] }];
  const grant = { consentId, consentRequestId: crypto.randomUUID(), scopes, status: 'ISSUED' };
  t.is(validateThirdpartyOneOf(pick, grant).schema, 'ConsentsPostRequestPISP');
  const badRegistration = { ...grant, credential: { credentialType: 'FIDO' } };
  t.notThrows(() => validateThirdparty('ConsentsPostRequestPISP', badRegistration), 'the grant would take it');
  t.deepEqual(
    refusal(() => validateThirdpartyOneOf(pick, badRegistration)),
    {
      errorCode: '3102',
      errorDescription: "Missing mandatory element - /requestBody/credential must have required property 'status'",
    },
  );
});

test('a tag is read from a body not yet validated without tripping on what is not an object', (t) => {
  t.is(tagOf({ credential: { credentialType: 'FIDO' } }, 'credential', 'credentialType'), 'FIDO');
  for (const value of [null, undefined, 'text', 42, [{ credential: 1 }], { credential: 'FIDO' }]) t.is(tagOf(value, 'credential', 'credentialType'), undefined);
});

test("a request's expiration that names no real instant is 3100, naming the field; the body's expiration is then the instant it names", (t) => {
  for (const expiration of ['2023-02-29T10:00:00.000Z', '2024-04-31T10:00:00.000Z', '2024-01-01T24:00:00.000Z', '2024-01-01T10:00:00.000', 'tomorrow']) {
    const refused = refusal(() => validateFspiop('TransfersPostRequest', { ...transferBody('payerfsp', 'payeefsp', '1'), expiration }));
    t.is(refused?.errorCode, '3100', expiration);
    t.regex(refused?.errorDescription ?? '', /\/requestBody\/expiration/, expiration);
    t.is(
      codeOf(() => validateFspiop('QuotesPostRequest', { ...quoteBody('payerfsp', 'payeefsp', '5'), expiration })),
      '3100',
      expiration,
    );
  }
  const body = validateFspiop<TransfersPostRequest>('TransfersPostRequest', {
    ...transferBody('payerfsp', 'payeefsp', '1'),
    expiration: '2096-02-29T08:38:08.699-04:00',
  });
  t.is(instantOf(body.expiration), Date.UTC(2096, 1, 29, 12, 38, 8, 699));
});

test('every DateTime the published schema admits is an expiration', (t) => {
  const wallClock = fc.date({ min: new Date('1000-01-01T00:00:00.000Z'), max: new Date('9999-12-31T23:59:59.999Z'), noInvalidDate: true });
  const zone = fc.oneof(fc.constant('Z'), fc.tuple(fc.constantFrom('+', '-'), fc.integer({ min: 0, max: 19 }), fc.integer({ min: 0, max: 59 })));
  fc.assert(
    fc.property(wallClock, zone, (date, named) => {
      const offset = typeof named === 'string' ? named : `${named[0]}${String(named[1]).padStart(2, '0')}:${String(named[2]).padStart(2, '0')}`;
      const text = `${date.toISOString().slice(0, 23)}${offset}`;
      if (codeOf(() => validateThirdparty('DateTime', text)) !== undefined) throw new Error(`${text} refused by the schema`);
      if (!parseExpiration(text)) throw new Error(`${text} admitted by the schema but no expiration`);
    }),
  );
  t.pass();
});
