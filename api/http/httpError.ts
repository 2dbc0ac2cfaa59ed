import { errorInformation, ErrorInformation, FspiopErrorName } from '../contracts/errors';

/** An error the gateway answers directly, with its HTTP status and FSPIOP ErrorInformation. */
export class HttpError extends Error {
  readonly errorInformation: ErrorInformation;

  constructor(
    readonly status: number,
    errorName: FspiopErrorName,
    detail?: string,
  ) {
    super(detail ?? errorName);
    this.errorInformation = errorInformation(errorName, detail);
  }
}
