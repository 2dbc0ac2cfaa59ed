import type { ConsentsPostRequestAUTH, ThirdpartyRequestsVerificationsPostRequest } from './bodies';

/** The registration that starts a consent at the hub's Auth service: the DFSP's POST /consents, with the credential. */
export interface ConsentRegistration {
  body: ConsentsPostRequestAUTH;
  dfsp: string;
  requestHash: string;
}

/** A request to the hub's Auth service about a registered consent, as the gateway hands it on. */
export type ConsentRequest =
  { kind: 'verification'; request: ThirdpartyRequestsVerificationsPostRequest; requester: string } | { kind: 'revocation'; requester: string };
