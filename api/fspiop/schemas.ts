import fs from 'node:fs';
import path from 'node:path';
import Ajv, { ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import YAML from 'yaml';
import { HttpError } from '../http/httpError';
import { schemaError } from '../http/schemaErrors';

/**
 * FSPIOP v1.1 bodies are validated against the schemas of the published Mojaloop OpenAPI documents
 * (npm @mojaloop/api-snippets), loaded file by file so their relative $refs resolve as published. The
 * third-party API v1.0 (Document 1) is loaded beside them: its schemas refer to FSPIOP v1.1's by relative path.
 */
const snippets = path.dirname(require.resolve('@mojaloop/api-snippets/package.json'));
const FOLDERS = { fspiop: 'fspiop/v1_1/openapi3/components/schemas/', thirdparty: 'thirdparty/v1_0/openapi3/components/schemas/' };
/** Each file's $id is its place in the package, so a $ref from one document into the other resolves. */
const base = 'https://api-snippets.mojaloop.io/';

/**
 * The schemas the gateway validates against, by their names in the FSPIOP document; those of the third-party
 * document are named `thirdparty/{name}`.
 */
export const FSPIOP_SCHEMAS = [
  'ParticipantsTypeIDSubIDPostRequest',
  'ParticipantsTypeIDPutResponse',
  'ParticipantsIDPutResponse',
  'PartiesTypeIDPutResponse',
  'PartyIdType',
  'PartyIdentifier',
  'PartySubIdOrType',
  'QuotesPostRequest',
  'QuotesIDPutResponse',
  'BulkQuotesPostRequest',
  'BulkQuotesIDPutResponse',
  'TransfersPostRequest',
  'TransfersIDPutResponse',
  'TransactionRequestsPostRequest',
  'TransactionRequestsIDPutResponse',
  'AuthorizationsIDPutResponse',
  'TransactionsIDPutResponse',
  'BulkTransfersPostRequest',
  'BulkTransfersIDPutResponse',
  'ErrorInformationObject',
  'AuthenticationType',
  'Integer',
  'Amount',
  'Currency',
  'CorrelationId',
  'thirdparty/PartyIdType',
  'thirdparty/ParticipantsPostRequest',
] as const;

export type FspiopSchema = (typeof FSPIOP_SCHEMAS)[number];

/**
 * A CorrelationId as Mojaloop's hub accepts it in every FSPIOP version: a lower-case UUID (versions 1-7) or an
 * upper-case ULID, the identifiers current Mojaloop DFSPs generate. It is the pattern of the FSPIOP v2.0
 * document; v1.1's admits UUID versions 1-5 only.
 */
export const CORRELATION_ID_PATTERN = '^[0-9a-f]{8}-[0-9a-f]{4}-[1-7][0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$|^[0-9A-HJKMNP-TV-Z]{26}$';

let ajv: Ajv | undefined;

function compiler(): Ajv {
  if (ajv) return ajv;
  ajv = new Ajv({ strict: false, allErrors: false });
  addFormats(ajv);
  for (const folder of Object.values(FOLDERS)) {
    for (const file of fs.readdirSync(path.join(snippets, folder)).filter((name) => name.endsWith('.yaml'))) {
      const schema = YAML.parse(fs.readFileSync(path.join(snippets, folder, file), 'utf-8'));
      const $id = `${base}${folder}${file}`;
      // The third-party document's CorrelationId is a $ref to this one, so it takes the same pattern.
      if ($id === schemaId('CorrelationId')) schema.pattern = CORRELATION_ID_PATTERN;
      ajv.addSchema({ ...schema, $id });
    }
  }
  return ajv;
}

/** The $id of a schema: `thirdparty/{name}` is the third-party document's, any other name FSPIOP's. */
function schemaId(schema: FspiopSchema): string {
  const [folder, name] = schema.startsWith('thirdparty/') ? [FOLDERS.thirdparty, schema.slice('thirdparty/'.length)] : [FOLDERS.fspiop, schema];
  return `${base}${folder}${name}.yaml`;
}

const validators = new Map<FspiopSchema, ValidateFunction>();

function validator(schema: FspiopSchema): ValidateFunction {
  let validate = validators.get(schema);
  if (!validate) {
    validate = compiler().getSchema(schemaId(schema))!;
    validators.set(schema, validate);
  }
  return validate;
}

/** Returns the value typed as its schema, or throws the FSPIOP error (3101/3102/3103/3100) for it. */
export function validateFspiop<T>(schema: FspiopSchema, value: unknown, where = 'body'): T {
  const validate = validator(schema);
  if (value === undefined) throw new HttpError(400, 'missingElement', `${where} is required`);
  if (!validate(value)) throw schemaError(validate.errors, where);
  return value as T;
}

/** Compiles every schema the gateway uses, so the first request does not pay for it. */
export function warmUpSchemas(): void {
  for (const schema of FSPIOP_SCHEMAS) validator(schema);
}

/** The {ID} of a path naming a conversation (transferId, quoteId): a CorrelationId, else 400 (3101). */
export function pathId(id: string): string {
  return validateFspiop<string>('CorrelationId', id, 'path ID');
}
