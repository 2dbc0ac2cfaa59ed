import fs from 'node:fs';
import path from 'node:path';
import Ajv, { ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import { SETTLEMENT_TEXT_LENGTHS } from '../../activities/hub/db/settlementEntities';
import { repoRoot } from '../../activities/shared/platform/config';
import { schemaError } from '../../activities/shared/platform/schemaErrors';

/**
 * Request bodies are validated against central-settlement's own document (17.3.4), so the hub takes exactly what
 * Mojaloop's settlement tooling sends.
 */
const documentPath = path.join(repoRoot, 'api', 'settlement', 'central-settlement-swagger.json');

export type SettlementSchema =
  | 'SettlementWindowClosurePayload'
  | 'SettlementEventPayload'
  | 'SettlementUpdateBySettlementIdPayload'
  | 'SettlementUpdateBySettlementParticipantPayload'
  | 'SettlementUpdateBySettlementParticipantAccount';

const SCHEMAS: SettlementSchema[] = [
  'SettlementWindowClosurePayload',
  'SettlementEventPayload',
  'SettlementUpdateBySettlementIdPayload',
  'SettlementUpdateBySettlementParticipantPayload',
  'SettlementUpdateBySettlementParticipantAccount',
];

interface Definition {
  properties?: Record<string, { type?: string; maxLength?: number }>;
}

/**
 * The document leaves `reason` and `externalReference` unbounded, but the hub keeps them in columns of a length: a
 * longer one is refused here (3100), on every database, rather than by MySQL inside a step.
 */
function boundedTexts(definitions: Record<string, Definition>): Record<string, Definition> {
  for (const definition of Object.values(definitions)) {
    for (const [name, maxLength] of Object.entries(SETTLEMENT_TEXT_LENGTHS)) {
      const property = definition.properties?.[name];
      if (property?.type === 'string') property.maxLength = maxLength;
    }
  }
  return definitions;
}

export class SettlementValidator {
  private readonly validators = new Map<SettlementSchema, ValidateFunction>();

  constructor() {
    // central-settlement's validation converts values to the document's types, so Mojaloop's tooling sends IDs as
    // strings ("settlementWindows": [{"id": "1"}]): converted here as there, in place, before anything reads them.
    const ajv = new Ajv({ strict: false, allErrors: false, coerceTypes: true });
    addFormats(ajv);
    const document = JSON.parse(fs.readFileSync(documentPath, 'utf-8')) as { definitions: Record<string, Definition> };
    ajv.addSchema({ $id: 'settlement', definitions: boundedTexts(document.definitions) });
    for (const name of SCHEMAS) this.validators.set(name, ajv.getSchema(`settlement#/definitions/${name}`)!);
  }

  /** Returns the body typed as its schema's shape, or throws the FSPIOP error for the first violation. */
  validate<T>(schema: SettlementSchema, body: unknown): T {
    const validate = this.validators.get(schema)!;
    if (body === undefined || !validate(body)) throw schemaError(validate.errors, 'body');
    return body as T;
  }
}
