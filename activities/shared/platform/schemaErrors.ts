import type { ErrorObject } from 'ajv';
import { HttpError } from './httpError';

/**
 * The first schema violation as Mojaloop's FSPIOP services report it (central-services-error-handling's
 * createFSPIOPErrorFromOpenapiError): a missing property is 3102, an extra one 3103, a value of the wrong type 3101,
 * anything else (a pattern, an enum, a length, too many items) 3100. The detail names the place as their OpenAPI
 * validator does, a body's fields under `/requestBody`.
 */
export function schemaError(errors: ErrorObject[] | null | undefined, where: string): HttpError {
  const error = errors?.[0];
  if (!error) return new HttpError(400, 'validationError', `${where} is invalid`);
  const path = `${where === 'body' ? '/requestBody' : where}${error.instancePath}`;
  switch (error.keyword) {
    case 'required':
      return new HttpError(400, 'missingElement', `${path} must have required property '${(error.params as { missingProperty: string }).missingProperty}'`);
    case 'additionalProperties':
      return new HttpError(400, 'tooManyElements', `${path} must NOT have additional properties`);
    case 'type':
      return new HttpError(400, 'malformedSyntax', `${path} ${error.message}`);
    default:
      return new HttpError(400, 'validationError', `${path} ${error.message}`);
  }
}

/**
 * The first violation as central-ledger's admin API reports every one (hapi and Joi, whose failures it turns into
 * 3101): Malformed syntax, with the field named as Joi names it (`"currency" must be one of [...]`).
 */
export function adminSchemaError(errors: ErrorObject[] | null | undefined): HttpError {
  const error = errors?.[0];
  if (!error) return new HttpError(400, 'malformedSyntax', 'the body is invalid');
  const field = error.instancePath.slice(1).replaceAll('/', '.');
  switch (error.keyword) {
    case 'required':
      return new HttpError(
        400,
        'malformedSyntax',
        `"${[field, (error.params as { missingProperty: string }).missingProperty].filter(Boolean).join('.')}" is required`,
      );
    case 'additionalProperties':
      return new HttpError(
        400,
        'malformedSyntax',
        `"${[field, (error.params as { additionalProperty: string }).additionalProperty].filter(Boolean).join('.')}" is not allowed`,
      );
    case 'enum':
      return new HttpError(400, 'malformedSyntax', `"${field}" must be one of [${(error.params as { allowedValues: unknown[] }).allowedValues.join(', ')}]`);
    default:
      return new HttpError(400, 'malformedSyntax', `"${field || 'value'}" ${error.message}`);
  }
}
