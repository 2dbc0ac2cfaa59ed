import type { ErrorInformation } from './errors';

/** How a check of the bank's came out: fine, with what it found, or the error to send. */
export type Checked<T> = ({ ok: true } & T) | { ok: false; errorInformation: ErrorInformation };
