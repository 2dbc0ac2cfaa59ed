import test from 'ava';
import Ajv, { type ErrorObject } from 'ajv';
import type { HttpError } from '../../../../../activities/shared/platform/httpError';
import { adminSchemaError, schemaError } from '../../../../../activities/shared/platform/schemaErrors';

// A schema violation as each of Mojaloop's APIs reports it: the FSPIOP services with a code per kind of violation
// (central-services-error-handling), central-ledger's admin API with 3101 for every one, in Joi's words.

const ajv = new Ajv({ allErrors: true });
const party = ajv.compile({
  type: 'object',
  required: ['partyIdType', 'partyIdentifier'],
  additionalProperties: false,
  properties: {
    partyIdType: { type: 'string', enum: ['MSISDN', 'EMAIL'] },
    partyIdentifier: { type: 'string', minLength: 1, maxLength: 128 },
    amount: { type: 'object', required: ['amount'], properties: { amount: { type: 'string', pattern: '^[0-9]+$' } } },
    limit: { type: 'object', required: ['value'], additionalProperties: false, properties: { value: { type: 'number' } } },
    isActive: { type: 'boolean' },
  },
});

/** The errors ajv finds in `value`, in the order it finds them. */
function errorsOf(value: unknown): ErrorObject[] {
  if (party(value)) throw new Error('the value is valid');
  return party.errors!;
}

const answered = (error: HttpError) => ({ status: error.status, ...error.errorInformation });

test("FSPIOP: a missing element is 3102, naming it where Mojaloop's OpenAPI validator does, a body's fields under /requestBody", (t) => {
  t.deepEqual(answered(schemaError(errorsOf({ partyIdType: 'MSISDN' }), 'body')), {
    status: 400,
    errorCode: '3102',
    errorDescription: "Missing mandatory element - /requestBody must have required property 'partyIdentifier'",
  });
  t.is(
    schemaError(errorsOf({ partyIdType: 'MSISDN', partyIdentifier: '1', amount: {} }), 'body').errorInformation.errorDescription,
    "Missing mandatory element - /requestBody/amount must have required property 'amount'",
  );
  t.is(
    schemaError(errorsOf({ partyIdType: 'MSISDN' }), 'query').errorInformation.errorDescription,
    "Missing mandatory element - query must have required property 'partyIdentifier'",
  );
});

test('FSPIOP: an element the schema does not allow is 3103, a value of the wrong type 3101', (t) => {
  t.deepEqual(schemaError(errorsOf({ partyIdType: 'MSISDN', partyIdentifier: '1', nickname: 'x' }), 'body').errorInformation, {
    errorCode: '3103',
    errorDescription: 'Too many elements - /requestBody must NOT have additional properties',
  });
  t.deepEqual(schemaError(errorsOf({ partyIdType: 'MSISDN', partyIdentifier: 123 }), 'body').errorInformation, {
    errorCode: '3101',
    errorDescription: 'Malformed syntax - /requestBody/partyIdentifier must be string',
  });
});

test('FSPIOP: any other violation (a pattern, an enum, a length) is the generic 3100, with the validator’s words', (t) => {
  const generic = (value: unknown) => schemaError(errorsOf(value), 'body').errorInformation;
  t.deepEqual(generic({ partyIdType: 'MSISDN', partyIdentifier: '1', amount: { amount: '1.5' } }), {
    errorCode: '3100',
    errorDescription: 'Generic validation error - /requestBody/amount/amount must match pattern "^[0-9]+$"',
  });
  t.is(generic({ partyIdType: 'PHONE', partyIdentifier: '1' }).errorCode, '3100');
  t.is(
    generic({ partyIdType: 'MSISDN', partyIdentifier: '' }).errorDescription,
    'Generic validation error - /requestBody/partyIdentifier must NOT have fewer than 1 characters',
  );
  t.is(generic({ partyIdType: 'MSISDN', partyIdentifier: 'x'.repeat(129) }).errorCode, '3100');
});

test('FSPIOP: only the first violation is reported; without any named, the place is said to be invalid (3100)', (t) => {
  const missing = errorsOf({ partyIdentifier: '1' })[0];
  const extra = errorsOf({ partyIdType: 'MSISDN', partyIdentifier: '1', nickname: 'x' })[0];
  t.is(schemaError([missing, extra], 'body').errorInformation.errorCode, '3102');
  t.is(schemaError([extra, missing], 'body').errorInformation.errorCode, '3103');
  t.deepEqual(schemaError(null, 'path ID').errorInformation, { errorCode: '3100', errorDescription: 'Generic validation error - path ID is invalid' });
  t.is(schemaError([], 'body').status, 400);
});

test('admin API: every violation is 400 with 3101, the field named as Joi names it', (t) => {
  const admin = (value: unknown) => answered(adminSchemaError(errorsOf(value)));
  t.deepEqual(admin({ partyIdentifier: '1' }), { status: 400, errorCode: '3101', errorDescription: 'Malformed syntax - "partyIdType" is required' });
  t.is(admin({ partyIdType: 'MSISDN', partyIdentifier: '1', limit: {} }).errorDescription, 'Malformed syntax - "limit.value" is required');
  t.is(admin({ partyIdType: 'MSISDN', partyIdentifier: '1', nickname: 'x' }).errorDescription, 'Malformed syntax - "nickname" is not allowed');
  t.is(
    admin({ partyIdType: 'MSISDN', partyIdentifier: '1', limit: { value: 1, type: 'x' } }).errorDescription,
    'Malformed syntax - "limit.type" is not allowed',
  );
  t.is(admin({ partyIdType: 'PHONE', partyIdentifier: '1' }).errorDescription, 'Malformed syntax - "partyIdType" must be one of [MSISDN, EMAIL]');
  t.is(admin({ partyIdType: 'MSISDN', partyIdentifier: '1', isActive: 'yes' }).errorDescription, 'Malformed syntax - "isActive" must be boolean');
  t.is(admin('a string').errorDescription, 'Malformed syntax - "value" must be object', 'the body itself is "value"');
  t.deepEqual(adminSchemaError(undefined).errorInformation, { errorCode: '3101', errorDescription: 'Malformed syntax - the body is invalid' });
});
