/**
 * A credential check's answer: what it established, or why not. A failed check is an expected business outcome
 * (the Auth service answers the DFSP with an error callback), so it is returned, never thrown.
 */
export type Verified<T extends object = object> = ({ verified: true } & T) | Rejected;

export interface Rejected {
  verified: false;
  reason: string;
}

export const rejected = (reason: string): Rejected => ({ verified: false, reason });
