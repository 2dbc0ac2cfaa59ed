import type { ConsentsPostRequestAUTH, ThirdpartyRequestsVerificationsPostRequest } from './bodies';

/** The registration that starts a consent at the hub's Auth service: the DFSP's POST /consents, with the credential. */
export interface ConsentRegistration {
  body: ConsentsPostRequestAUTH;
  dfsp: string;
  requestHash: string;
}

/**
 * A request to the hub's Auth service about a consent it has been asked to register, as the gateway hands it on: a
 * registration repeated (the duplicate rule runs it again: the same one is answered as before, another is 3106), a
 * verification, a revocation.
 */
export type ConsentRequest =
  | { kind: 'registration'; registration: ConsentRegistration }
  | { kind: 'verification'; request: ThirdpartyRequestsVerificationsPostRequest; requester: string }
  | { kind: 'revocation'; requester: string };
