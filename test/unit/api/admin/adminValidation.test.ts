import test from 'ava';
import { AdminValidator, adminDocument, type AdminSchema } from '../../../../api/admin/adminValidation';
import { deferredNetModelBody } from '../../../helpers/adminBodies';
import { HttpError } from '../../../../activities/shared/platform/httpError';

// The admin API's bodies are held to central-ledger's own OpenAPI document, so the hub takes exactly what Mojaloop's
// provisioning tooling sends, and refuses the rest as central-ledger does: 400, 3101, the field named as Joi names it.

const validator = new AdminValidator();

/** The errorDescription a body is refused with, or undefined when it is taken. */
function refusal(schema: AdminSchema, body: unknown): string | undefined {
  try {
    validator.validate(schema, body);
    return undefined;
  } catch (error) {
    if (!(error instanceof HttpError)) throw error;
    if (error.status !== 400 || error.errorInformation.errorCode !== '3101') throw new Error(`refused ${error.status} ${error.errorInformation.errorCode}`);
    return error.errorInformation.errorDescription;
  }
}

test('a participant needs a name of 2 to 30 characters and, when it names one, an ISO 4217 currency', (t) => {
  t.is(refusal('PostParticipantsRequest', { name: 'payerfsp', currency: 'USD' }), undefined);
  t.is(refusal('PostParticipantsRequest', { currency: 'USD' }), 'Malformed syntax - "name" is required');
  t.is(refusal('PostParticipantsRequest', { name: 'a', currency: 'USD' }), 'Malformed syntax - "name" must NOT have fewer than 2 characters');
  t.is(refusal('PostParticipantsRequest', { name: 'x'.repeat(31), currency: 'USD' }), 'Malformed syntax - "name" must NOT have more than 30 characters');
  t.regex(refusal('PostParticipantsRequest', { name: 'payerfsp', currency: 'A#' }) ?? '', /^Malformed syntax - "currency" must be one of \[AED, AFN, /);
});

test("a participant's name is letters and digits only, as central-ledger's Joi alphanum() holds it, so no name is a spreadsheet formula", (t) => {
  const named = (name: string) => refusal('PostParticipantsRequest', { name, currency: 'USD' });
  for (const name of ['payerfsp', 'DFSP2', 'ab', 'x'.repeat(30)]) t.is(named(name), undefined, name);
  for (const name of ['=B1234', '+cmd', '-1+2', '@SUM', 'payer-fsp', 'payer_fsp', 'payer fsp', 'dfspé', '\tdfsp'])
    t.is(named(name), 'Malformed syntax - "name" must only contain alpha-numeric characters', JSON.stringify(name));
  t.is(
    refusal('SettlementModel', { ...deferredNetModelBody('DEFERRED-NET', 'USD') }),
    'Malformed syntax - "name" must only contain alpha-numeric characters',
    "a settlement model's name too, as central-ledger's own route holds it",
  );
});

test('a body that is missing, or not an object, or holds a wrongly typed value is refused in the same words', (t) => {
  t.is(refusal('PostParticipantsRequest', undefined), 'Malformed syntax - "value" is required');
  t.is(refusal('PostParticipantsRequest', 'payerfsp'), 'Malformed syntax - "value" must be object');
  t.is(refusal('ParticipantIsActive', { isActive: 'yes' }), 'Malformed syntax - "isActive" must be boolean');
  t.is(refusal('ParticipantIsActive', { isActive: false }), undefined);
  t.is(refusal('PostInitialPositionAndLimitsRequest', { currency: 'USD', limit: { type: 'NET_DEBIT_CAP' } }), 'Malformed syntax - "limit.value" is required');
});

test("limits and positions come as JSON numbers or as numeric strings, as Mojaloop's onboarding scripts send them", (t) => {
  const limits = (value: unknown, initialPosition?: unknown) =>
    refusal('PostInitialPositionAndLimitsRequest', { currency: 'USD', limit: { type: 'NET_DEBIT_CAP', value }, initialPosition });
  for (const value of [5000, 4000.5, '5000', '4000.00', '-12.5', '123456789012345678.1234']) t.is(limits(value), undefined, String(value));
  t.is(limits('5000', '0'), undefined);
  for (const value of ['1e3', ' 5', '5 ', '+5', '5.', '.5', 'five', ''])
    t.regex(limits(value) ?? '', /^Malformed syntax - "limit.value" must match pattern/, JSON.stringify(value));
  t.is(limits(true), 'Malformed syntax - "limit.value" must be number,string');
  t.regex(limits('5000', '1,000') ?? '', /"initialPosition" must match pattern/);
  const adjusted = (alarmPercentage: unknown) =>
    refusal('PutParticipantsNameLimitsRequest', { currency: 'USD', limit: { type: 'NET_DEBIT_CAP', value: '1000', alarmPercentage } });
  t.is(adjusted('10'), undefined);
  t.is(adjusted(10), undefined);
  t.regex(adjusted('10%') ?? '', /"limit.alarmPercentage" must match pattern/);
});

test('a settlement model may be NET, as central-ledger and every deferred net scheme use it, though the published document lists only GROSS', (t) => {
  const model = (settlementGranularity: string) => ({ ...deferredNetModelBody('DEFERREDNET', 'USD'), settlementGranularity });
  t.is(refusal('SettlementModel', model('NET')), undefined);
  t.is(refusal('SettlementModel', model('GROSS')), undefined);
  t.is(refusal('SettlementModel', model('BILATERAL')), 'Malformed syntax - "settlementGranularity" must be one of [GROSS, NET]');
  t.deepEqual((adminDocument().components.schemas.SettlementModel.properties as Record<string, { enum?: string[] }>).settlementGranularity.enum, [
    'GROSS',
    'NET',
  ]);
});

test("an e-mail endpoint holds one bare address: a list or a display name is refused (3100), so a participant's alarms go nowhere else", (t) => {
  const refused = (value: string) => {
    try {
      validator.endpointValue('NET_DEBIT_CAP_THRESHOLD_BREACH_EMAIL', value);
      return undefined;
    } catch (error) {
      if (!(error instanceof HttpError)) throw error;
      return `${error.status} ${error.errorInformation.errorCode}`;
    }
  };
  t.is(refused('treasury@payer.example'), undefined);
  t.is(refused("o'brien+alarms@payer.example"), undefined);
  for (const value of [
    'treasury@payer.example, spy@other.example',
    'treasury@payer.example,spy@other.example',
    'treasury@payer.example; spy@other.example',
    '"treasury@payer.example" <spy@other.example>',
    'Treasury <treasury@payer.example>',
    'treasury@payer.example spy@other.example',
    'treasury@payer.example\nBcc: spy@other.example',
    'undisclosed: spy@other.example;',
    'treasury',
  ])
    t.is(refused(value), '400 3100', JSON.stringify(value));
  for (const type of ['NET_DEBIT_CAP_ADJUSTMENT_EMAIL', 'SETTLEMENT_TRANSFER_POSITION_CHANGE_EMAIL'])
    t.throws(() => validator.endpointValue(type, 'a@payer.example, b@payer.example'), { instanceOf: HttpError }, type);
  t.is(validator.endpointValue('FSPIOP_CALLBACK_URL_QUOTES', 'http://payer:4000'), 'http://payer:4000', 'other endpoints are URLs, not addresses');
});
