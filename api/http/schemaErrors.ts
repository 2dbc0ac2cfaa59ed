import type { ErrorObject } from 'ajv';
import { HttpError } from './httpError';

/**
 * Maps the first schema violation to the FSPIOP code Mojaloop reports for it: a missing property is
 * 3102, an extra one (or too many items) 3103, a wrongly typed or shaped value 3101, anything else 3100.
 */
export function schemaError(errors: ErrorObject[] | null | undefined, where: string): HttpError {
  const error = errors?.[0];
  if (!error) return new HttpError(400, 'validationError', `${where} is invalid`);
  const path = `${where}${error.instancePath.replace(/\//g, '.')}`;
  switch (error.keyword) {
    case 'required':
      return new HttpError(400, 'missingElement', `${path} must have required property '${(error.params as { missingProperty: string }).missingProperty}'`);
    case 'additionalProperties':
      return new HttpError(
        400,
        'tooManyElements',
        `${path} must NOT have additional property '${(error.params as { additionalProperty: string }).additionalProperty}'`,
      );
    case 'maxItems':
      return new HttpError(400, 'tooManyElements', `${path} ${error.message}`);
    case 'type':
    case 'pattern':
    case 'format':
      return new HttpError(400, 'malformedSyntax', `${path} ${error.message}`);
    default:
      return new HttpError(400, 'validationError', `${path} ${error.message}`);
  }
}
