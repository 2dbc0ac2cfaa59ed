import type { thirdparty } from '@mojaloop/api-snippets';

/**
 * How the linking ended. An accountsLinked one holds the consent and the accounts it covers: the connector finds the
 * consent to sign a payment with in these results (activities/pisp/linkedConsents.ts), kept by Temporal.
 */
export interface PispLinkingOutcome {
  state: 'accountsLinked' | 'errored' | 'abandoned';
  consentId?: string;
  dfsp?: string;
  scopes?: thirdparty.Schemas.Scope[];
}
