import { upsertSearchAttributes } from '@temporalio/workflow';
import { errorInformation as errorOf, type ErrorInformation } from '../../api/contracts/errors';
import { ConsentId, Dfsp } from '../../api/contracts/searchAttributes';
import { exchangeAsChild } from '../participant/exchange';
import { credentials } from './activities';
import type { LinkingConsentsIDDeleteResponse } from './appApi';
import { enter, errored } from './appCalls';
import { timedOut } from './sending';

export interface PispUnlinkingInput {
  consentId: string;
  /** The DFSP that granted the consent: the DELETE is addressed to it (linking rule 6), wherever the Auth service is. */
  dfsp: string;
  /** REQUEST_TIMEOUT_MS: how long the app waits for PATCH /consents/{ID}. */
  requestTimeoutMs: number;
}

/**
 * `pispUnlinking/<consentId>`: the user unlinks an account from the PISP's app (Document 1, linking rules 5 and 6).
 * DELETE /consents/{ID} goes to the DFSP; the switch hands it to its Auth service when that holds the consent, else to
 * the DFSP. Whoever revokes it answers with PATCH /consents/{ID} REVOKED (or PUT /consents/{ID}/error), keyed by the
 * consentId: an exchange named after it receives it. Once revoked, the connector no longer signs with the consent's
 * GENERIC key, so a payment from its accounts is refused here as from an account never linked.
 */
export async function pispUnlinking({ consentId, dfsp, requestTimeoutMs }: PispUnlinkingInput): Promise<LinkingConsentsIDDeleteResponse> {
  upsertSearchAttributes([
    { key: Dfsp, value: dfsp },
    { key: ConsentId, value: consentId },
  ]);
  enter('start');
  const unlinked = await exchangeAsChild({
    request: { to: dfsp, resource: 'consents', name: 'delete', id: consentId },
    answerId: consentId,
    answeredBy: ['patch', 'error'],
    waitMs: requestTimeoutMs,
  });
  if (unlinked.kind === 'refused') return errored(unlinked.errorInformation);
  if (unlinked.kind === 'timedOut') return errored(timedOut('PATCH /consents/{ID}', requestTimeoutMs));
  const { errorInformation, status, revokedAt } = unlinked.message.body as { errorInformation?: ErrorInformation; status?: string; revokedAt?: string };
  if (errorInformation) return errored(errorInformation);
  if (status !== 'REVOKED' || !revokedAt) return errored(errorOf('thirdpartyAccountLinkingError', `PATCH /consents/${consentId} did not revoke it`));
  await credentials.forgetConsent({ consentId });
  enter('consentRevoked');
  return { consent: { consentId, status: 'REVOKED', revokedAt }, currentState: 'consentRevoked' };
}
