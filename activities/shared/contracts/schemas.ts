import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import Ajv, { ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import YAML from 'yaml';
import { parseExpiration } from './expiry';
import { HttpError } from '../platform/httpError';
import { schemaError } from '../platform/schemaErrors';

/**
 * Bodies are validated against the schemas of the published Mojaloop OpenAPI documents (npm @mojaloop/api-snippets):
 * FSPIOP v1.1 for a 1.x message, FSPIOP v2.0 for a 2.0 one, and the third-party API v1.0. Each file is loaded under
 * its own file URL, so the relative $refs resolve as published, the third-party document's into the FSPIOP one
 * included.
 */
const snippets = path.dirname(require.resolve('@mojaloop/api-snippets/package.json'));
const DOCUMENTS = {
  fspiop: path.join(snippets, 'fspiop', 'v1_1', 'openapi3', 'components', 'schemas'),
  fspiop2: path.join(snippets, 'fspiop', 'v2_0', 'openapi3', 'components', 'schemas'),
  thirdparty: path.join(snippets, 'thirdparty', 'v1_0', 'openapi3', 'components', 'schemas'),
  iso20022: path.join(snippets, 'fspiop', 'v2_0_ISO20022', 'openapi3', 'components', 'schemas'),
};

/**
 * The FSPIOP document a message is held to: its own version's. Mojaloop's switch holds every version to its 2.0
 * document; here a 1.x message keeps the 1.1 rules it was written to (properties beyond the schema allowed), so the
 * 1.x DFSPs the hub served before 2.0 are not refused for what 1.1 lets them send.
 */
const fspiopDocumentOf = (version: string): DocumentName => (version.startsWith('2.') ? 'fspiop2' : 'fspiop');
type DocumentName = keyof typeof DOCUMENTS;

/** The schemas of the FSPIOP document the gateway validates against, by their names there. */
export const FSPIOP_SCHEMAS = [
  'ParticipantsPostRequest',
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
  'TransfersIDPatchResponse',
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
] as const;

export type FspiopSchema = (typeof FSPIOP_SCHEMAS)[number];

/**
 * A CorrelationId as Mojaloop's hub accepts it in every FSPIOP version: a lower-case UUID (versions 1-7) or an
 * upper-case ULID, the identifiers current Mojaloop DFSPs generate. It is the pattern of the FSPIOP v2.0
 * document; v1.1's admits UUID versions 1-5 only.
 */
export const CORRELATION_ID_PATTERN = '^[0-9a-f]{8}-[0-9a-f]{4}-[1-7][0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$|^[0-9A-HJKMNP-TV-Z]{26}$';

/**
 * Where Mojaloop's switch reads an FSPIOP schema otherwise than the published document, and the hub reads it as the
 * switch does, so Mojaloop's DFSPs and tooling meet the same answers here: a CorrelationId as above; an authorization's
 * `responseType` as any text (the transaction-requests service's own document has no enumeration there, so a value
 * outside ENTERED, REJECTED and RESEND is taken and passed on), held here to 32 characters, as it names the
 * transaction request's state.
 */
const MOJALOOP_READINGS: Record<string, (schema: { pattern?: string; properties?: Record<string, unknown> }) => void> = {
  'CorrelationId.yaml': (schema) => {
    schema.pattern = CORRELATION_ID_PATTERN;
  },
  'AuthorizationsIDPutResponse.yaml': (schema) => {
    schema.properties = { ...schema.properties, responseType: { type: 'string', minLength: 1, maxLength: 32 } };
  },
};

/** The schemas of the third-party document the gateway validates against, by their names there. */
export const THIRDPARTY_SCHEMAS = [
  'AccountsIDPutResponse',
  'ConsentRequestsPostRequest',
  'ConsentRequestsIDPutResponseWeb',
  'ConsentRequestsIDPutResponseOTP',
  'ConsentRequestsIDPatchRequest',
  'ConsentsPostRequestAUTH',
  'ConsentsPostRequestPISP',
  'ConsentsIDPutResponseSigned',
  'ConsentsIDPutResponseVerified',
  'ConsentsIDPatchResponseVerified',
  'ConsentsIDPatchResponseRevoked',
  'ThirdpartyRequestsTransactionsPostRequest',
  'ThirdpartyRequestsTransactionsIDPutResponse',
  'ThirdpartyRequestsTransactionsIDPatchResponse',
  'ThirdpartyRequestsAuthorizationsPostRequest',
  'ThirdpartyRequestsAuthorizationsIDPutResponseRejected',
  'ThirdpartyRequestsAuthorizationsIDPutResponseFIDO',
  'ThirdpartyRequestsAuthorizationsIDPutResponseGeneric',
  'ThirdpartyRequestsVerificationsPostRequestFIDO',
  'ThirdpartyRequestsVerificationsPostRequestGeneric',
  'ThirdpartyRequestsVerificationsIDPutResponse',
  'ServicesServiceTypePutResponse',
  'ServiceType',
  // The account lookup's, which know the third-party API's CONSENT and THIRD_PARTY_LINK.
  'PartyIdType',
  'ParticipantsPostRequest',
  'ParticipantsIDPutResponse',
  // The parts of the PISP connector's outbound API bodies (thirdparty-sdk's, built of these).
  'Account',
  'AccountAddress',
  'ScopeAction',
  'FspId',
  'CorrelationId',
  'PartyIdInfo',
  'PartyIdInfoTPLink',
  'Party',
  'AmountType',
  'Money',
  'TransactionType',
  'DateTime',
  'FIDOPublicKeyCredentialAttestation',
] as const;

export type ThirdpartySchema = (typeof THIRDPARTY_SCHEMAS)[number];

/** The bodies of FSPIOP 2.0's ISO 20022 document (API_TYPE=iso20022), by their names there. */
export const ISO20022_SCHEMAS = [
  'GetParties_IdentificationVerificationReportV03',
  'GetPartiesError_IdentificationVerificationReportV03',
  'TermsRequest_FIToFICustomerCreditProposal',
  'TermsResponse_FIToFICustomerCreditConfirmation',
  'Execute_FIToFICustomerCreditTransferV13',
  'PacsStatus_FIToFIPaymentStatusReportV15',
  'PacsError_FIToFIPaymentStatusReportV15',
] as const;

export type Iso20022Schema = (typeof ISO20022_SCHEMAS)[number];

/** The compilers: the gateway's stops at a body's first error; the other lists them all, to tell apart those of encrypted fields. */
const compilers: { first?: Ajv; all?: Ajv } = {};

const schemaUrl = (document: DocumentName, name: string) => pathToFileURL(path.join(DOCUMENTS[document], `${name}.yaml`)).href;

function compiler(errors: keyof typeof compilers = 'first'): Ajv {
  const known = compilers[errors];
  if (known) return known;
  const ajv = new Ajv({ strict: false, allErrors: errors === 'all' });
  compilers[errors] = ajv;
  addFormats(ajv);
  for (const document of Object.keys(DOCUMENTS) as DocumentName[]) {
    for (const file of fs.readdirSync(DOCUMENTS[document]).filter((name) => name.endsWith('.yaml'))) {
      const schema = YAML.parse(fs.readFileSync(path.join(DOCUMENTS[document], file), 'utf-8'));
      if (document !== 'thirdparty') MOJALOOP_READINGS[file]?.(schema);
      if (document === 'iso20022') openChoice(schema);
      const $id = schemaUrl(document, file.slice(0, -'.yaml'.length));
      // A file that is only a $ref to another document's schema is wrapped: beside $ref, draft-07 ignores $id.
      ajv.addSchema(schema.$ref ? { $id, allOf: [schema] } : { ...schema, $id });
    }
  }
  return ajv;
}

/**
 * The published ISO 20022 document closes each choice (a `…Choice`: one of several properties, as an `anyOf`) with
 * `additionalProperties: false` and no properties of its own, which JSON Schema reads as allowing none: every pacs.002
 * error (`Rsn: { Prtry }`) would fail. The copies Mojaloop's switch validates against (ml-api-adapter's) leave it out.
 */
function openChoice(schema: { additionalProperties?: unknown; properties?: unknown; anyOf?: unknown; oneOf?: unknown }): void {
  if (schema.additionalProperties === false && !schema.properties && (schema.anyOf || schema.oneOf)) delete schema.additionalProperties;
}

const validators = new Map<string, ValidateFunction>();

function validator(document: DocumentName, schema: string): ValidateFunction {
  const url = schemaUrl(document, schema);
  let validate = validators.get(url);
  if (!validate) {
    validate = compiler().getSchema(url);
    // A name the documents do not have is a mistake in this code, found when the gateway starts (warmUpSchemas).
    if (!validate) throw new Error(`no schema ${schema} in the ${document} document`);
    validators.set(url, validate);
  }
  return validate;
}

function validated<T>(validate: ValidateFunction, value: unknown, where: string): T {
  if (value === undefined) throw new HttpError(400, 'missingElement', `${where} is required`);
  if (!validate(value)) throw schemaError(validate.errors, where);
  return expirationRead<T>(value, where);
}

/**
 * The edge where a body's expiration is read (activities/shared/contracts/expiry.ts), once, for everything after it: text that
 * names no real instant is a 3100, as a DateTime failing its schema pattern is. The published pattern already refuses
 * most such text; this makes the body's type (its expiration an Expiration) true whatever a schema lets through.
 */
function expirationRead<T>(value: unknown, where: string): T {
  const expiration = (value as { expiration?: unknown } | null)?.expiration;
  if (typeof expiration === 'string' && !parseExpiration(expiration)) {
    throw new HttpError(400, 'validationError', `${where === 'body' ? '/requestBody' : where}/expiration ${expiration} names no date and time`);
  }
  return value as T;
}

/**
 * Returns the value typed as its schema, or throws the FSPIOP error (3101/3102/3103/3100) for it. The `encrypted`
 * fields (JSON pointers, see encryption.ts) hold cipher text in place of what the schema describes: an error at or
 * below one of them does not count.
 */
export function validateFspiop<T>(schema: FspiopSchema, value: unknown, where = 'body', encrypted: readonly string[] = [], version = '1.1'): T {
  if (schema === 'ErrorInformationObject') stringifyNumericErrorCode(value);
  const document = fspiopDocumentOf(version);
  const validate = validator(document, schema);
  if (encrypted.length === 0 || value === undefined) return validated(validate, value, where);
  if (validate(value)) return expirationRead(value, where);
  const all = compiler('all').getSchema(schemaUrl(document, schema))!;
  const counted = (all(value) ? [] : (all.errors ?? [])).filter(
    (error) => !encrypted.some((field) => error.instancePath === field || error.instancePath.startsWith(`${field}/`)),
  );
  if (counted.length > 0) throw schemaError(counted, where);
  return expirationRead(value, where);
}

/**
 * An error callback's `errorCode` sent as a number (`5100`) is taken as its string, as Mojaloop's validator takes it
 * (its ajv coerces types): DFSPs send it so, and the error must still reach the payer. What is passed on is the
 * sender's text, unchanged, as Mojaloop passes it on.
 */
function stringifyNumericErrorCode(value: unknown): void {
  const error = (value as { errorInformation?: { errorCode?: unknown } } | null)?.errorInformation;
  if (error && typeof error === 'object' && typeof error.errorCode === 'number' && Number.isInteger(error.errorCode)) error.errorCode = String(error.errorCode);
}

/** The same for the third-party API's schemas. */
export function validateThirdparty<T>(schema: ThirdpartySchema, value: unknown, where = 'body'): T {
  return validated(validator('thirdparty', schema), value, where);
}

/**
 * A body that is one of several schemas (the third-party API's `oneOf`s), validated against the one its tag names
 * (`pick`: a POST /consents with a `credential` is the registration with the Auth service). Trying each in turn
 * would not do: the alternatives do not all forbid other properties, so a registration whose credential is wrong
 * would pass as the grant to the PISP, and its sender would be told of a problem it does not have.
 */
export function validateThirdpartyOneOf<T>(pick: (value: unknown) => ThirdpartySchema, value: unknown, where = 'body'): { schema: ThirdpartySchema; body: T } {
  const schema = pick(value);
  return { schema, body: validateThirdparty<T>(schema, value, where) };
}

/** The value at `path` inside a body not yet validated (a `oneOf`'s tag); undefined where there is none. */
export function tagOf(value: unknown, ...path: string[]): unknown {
  let at = value;
  for (const key of path) {
    at = typeof at === 'object' && at !== null && !Array.isArray(at) ? (at as Record<string, unknown>)[key] : undefined;
  }
  return at;
}

/** The same for the ISO 20022 bodies of ISO 20022 mode. */
export function validateIso20022<T>(schema: Iso20022Schema, value: unknown, where = 'body'): T {
  return validated(validator('iso20022', schema), value, where);
}

/** Compiles every schema the gateway uses, so the first request does not pay for it. */
export function warmUpSchemas(): void {
  for (const schema of FSPIOP_SCHEMAS) for (const document of ['fspiop', 'fspiop2'] as const) validator(document, schema);
  for (const schema of THIRDPARTY_SCHEMAS) validator('thirdparty', schema);
}

/** Compiles the ISO 20022 schemas, for a gateway in ISO 20022 mode. */
export function warmUpIso20022Schemas(): void {
  for (const schema of ISO20022_SCHEMAS) validator('iso20022', schema);
}

/** The {ID} of a path naming a conversation (transferId, quoteId): a CorrelationId, else 400 (3101). */
export function pathId(id: string): string {
  return validateFspiop<string>('CorrelationId', id, 'path ID');
}
