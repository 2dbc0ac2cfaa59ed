import fs from 'node:fs';
import path from 'node:path';
import Ajv, { type SchemaValidateFunction, ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import YAML from 'yaml';
import { repoRoot } from '../../activities/shared/platform/config';
import { NOTIFICATION_ENDPOINT_TYPES } from '../../activities/shared/contracts/endpoints';
import { HttpError } from '../../activities/shared/platform/httpError';
import { adminSchemaError } from '../../activities/shared/platform/schemaErrors';

/**
 * Request bodies are validated against the Mojaloop central-ledger admin OpenAPI document itself,
 * so the hub accepts exactly what existing Mojaloop provisioning tooling sends.
 */
const documentPath = path.join(repoRoot, 'api', 'admin', 'central-ledger-admin-openapi.yaml');

export type AdminSchema =
  | 'PostParticipantsRequest'
  | 'ParticipantIsActive'
  | 'PostParticipantsNameEndpointsRequest'
  | 'PostInitialPositionAndLimitsRequest'
  | 'PutParticipantsNameLimitsRequest'
  | 'PostParticipantsNameAccountsRequest'
  | 'CurrencyIsActive'
  | 'Participants'
  | 'RecordFundsOut'
  | 'LedgerAccountType'
  | 'SettlementModel'
  | 'SettlementModelIsActive';

/** A number written as a JSON string: digits, an optional sign and fraction, nothing else (no exponent, no spaces). */
const NUMERIC_STRING = '^-?[0-9]+(\\.[0-9]+)?$';

/**
 * central-ledger's validator coerces numeric strings to numbers, and Mojaloop's onboarding scripts send amounts
 * and limits as strings ("5000", "4000.00"): every `number` of the document takes either form. Strings are kept
 * as they are, so an amount is never rounded through a double.
 */
function acceptNumericStrings(node: unknown): void {
  if (Array.isArray(node)) return node.forEach(acceptNumericStrings);
  if (node === null || typeof node !== 'object') return;
  const schema = node as Record<string, unknown>;
  if (schema.type === 'number') {
    schema.type = ['number', 'string'];
    schema.pattern = NUMERIC_STRING;
  }
  Object.values(schema).forEach(acceptNumericStrings);
}

/** The central-ledger admin document as the hub reads it: NET settlement, one-step funds out and numeric strings accepted. */
export function adminDocument(): { components: { schemas: Record<string, Record<string, unknown>> } } {
  const document = YAML.parse(fs.readFileSync(documentPath, 'utf-8'));
  // The published document lists only GROSS, yet central-ledger (and every deferred net scheme) uses NET.
  const granularity = document.components.schemas.SettlementModel.properties.settlementGranularity;
  granularity.enum = ['GROSS', 'NET'];
  // The hub's one-step funds out (Funds.recordFundsOut), which the console records with: central-ledger's two steps stay.
  document.components.schemas.Participants.properties.action.enum.push('recordFundsOut');
  acceptNumericStrings(document.components.schemas);
  return document;
}

/**
 * The document's `x-format: { alphanum: true }` (a participant's or a settlement model's name) as central-ledger's Joi
 * `alphanum()` holds it: ASCII letters and digits only, refused in Joi's words. A name is written into URLs and into
 * the settlement report a finance team opens in a spreadsheet, where `=B1234` would be a formula.
 */
const alphanumeric: SchemaValidateFunction = (format: { alphanum?: boolean }, data: unknown) => {
  if (!format.alphanum || typeof data !== 'string' || /^[a-zA-Z0-9]*$/.test(data)) return true;
  alphanumeric.errors = [{ keyword: 'x-format', message: 'must only contain alpha-numeric characters', params: { alphanum: true } }];
  return false;
};

export class AdminValidator {
  private readonly validators = new Map<AdminSchema, ValidateFunction>();
  private readonly oneEmailAddress: ValidateFunction;

  constructor() {
    const ajv = new Ajv({ strict: false, allErrors: false });
    addFormats(ajv);
    ajv.addKeyword({ keyword: 'x-format', type: 'string', schemaType: 'object', errors: true, validate: alphanumeric });
    this.oneEmailAddress = ajv.compile({ type: 'string', format: 'email' });
    ajv.addSchema({ ...adminDocument(), $id: 'admin' });
    for (const name of [
      'PostParticipantsRequest',
      'ParticipantIsActive',
      'PostParticipantsNameEndpointsRequest',
      'PostInitialPositionAndLimitsRequest',
      'PutParticipantsNameLimitsRequest',
      'PostParticipantsNameAccountsRequest',
      'CurrencyIsActive',
      'Participants',
      'RecordFundsOut',
      'LedgerAccountType',
      'SettlementModel',
      'SettlementModelIsActive',
    ] as AdminSchema[]) {
      this.validators.set(name, ajv.getSchema(`admin#/components/schemas/${name}`)!);
    }
  }

  /**
   * An endpoint's value as given, unless an e-mail endpoint's is other than one bare address: a list (`a@x, b@y`,
   * `a@x; b@y`) or a display name beside the address (`"a@x" <b@y>`) would send a participant's alarms elsewhere too.
   */
  endpointValue(type: string, value: string): string {
    if ((NOTIFICATION_ENDPOINT_TYPES as readonly string[]).includes(type) && !this.oneEmailAddress(value)) {
      throw new HttpError(400, 'validationError', `"value" of a ${type} endpoint must be one e-mail address (name@domain), without a display name`);
    }
    return value;
  }

  /** Returns the body typed as its schema's shape, or throws the FSPIOP error for the first violation. */
  validate<T>(schema: AdminSchema, body: unknown): T {
    const validate = this.validators.get(schema)!;
    if (body === undefined) throw new HttpError(400, 'malformedSyntax', '"value" is required');
    if (!validate(body)) throw adminSchemaError(validate.errors);
    return body as T;
  }
}
