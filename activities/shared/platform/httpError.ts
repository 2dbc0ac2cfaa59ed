import { errorInformation, ErrorInformation, FspiopErrorName } from '../contracts/errors';

/** An error the gateway answers directly, with its HTTP status and FSPIOP ErrorInformation. */
export class HttpError extends Error {
  readonly errorInformation: ErrorInformation;

  constructor(
    readonly status: number,
    errorName: FspiopErrorName,
    detail?: string,
    /** The ErrorInformation as another part of the hub already wrote it (a workflow's rejection), in place of one made here. */
    given?: ErrorInformation,
  ) {
    super(given?.errorDescription ?? detail ?? errorName);
    this.errorInformation = given ?? errorInformation(errorName, detail);
  }
}
