import fs from 'node:fs';
import path from 'node:path';
import Ajv, { ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import { repoRoot } from '../../activities/platform/config';
import { schemaError } from '../http/schemaErrors';

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

export class SettlementValidator {
  private readonly validators = new Map<SettlementSchema, ValidateFunction>();

  constructor() {
    const ajv = new Ajv({ strict: false, allErrors: false });
    addFormats(ajv);
    const document = JSON.parse(fs.readFileSync(documentPath, 'utf-8')) as { definitions: Record<string, unknown> };
    ajv.addSchema({ $id: 'settlement', definitions: document.definitions });
    for (const name of SCHEMAS) this.validators.set(name, ajv.getSchema(`settlement#/definitions/${name}`)!);
  }

  /** Returns the body typed as its schema's shape, or throws the FSPIOP error for the first violation. */
  validate<T>(schema: SettlementSchema, body: unknown): T {
    const validate = this.validators.get(schema)!;
    if (body === undefined || !validate(body)) throw schemaError(validate.errors, 'body');
    return body as T;
  }
}
