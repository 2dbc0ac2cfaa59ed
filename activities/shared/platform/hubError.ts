import { errorInformation, ErrorInformation, FspiopErrorName } from '../contracts/errors';

/**
 * A business rejection raised by the hub's own rules (unknown participant, limit exceeded, conflicting
 * duplicate…), named by its FSPIOP catalogue entry. Gateways turn it into an HTTP error or an error
 * callback; activities turn it into a non-retryable ApplicationFailure.
 */
export class HubError extends Error {
  constructor(
    readonly errorName: FspiopErrorName,
    /** Absent where Mojaloop gives the catalogue's words alone, which its tooling matches exactly (`Modified request`). */
    readonly detail?: string,
  ) {
    super(detail ?? errorName);
    this.name = 'HubError';
  }

  get errorInformation(): ErrorInformation {
    return errorInformation(this.errorName, this.detail);
  }
}

/** The ErrorInformation of the HubError `check` throws, or undefined when it passes; any other error goes on up. */
export function hubRefusalOf(check: () => void): ErrorInformation | undefined {
  try {
    check();
    return undefined;
  } catch (error) {
    if (error instanceof HubError) return error.errorInformation;
    throw error;
  }
}
