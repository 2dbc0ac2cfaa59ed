import { upsertSearchAttributes } from '@temporalio/workflow';
import { errorInformation as errorOf, type ErrorInformation } from '../../activities/shared/contracts/errors';
import { ConsentId, Dfsp } from '../../activities/shared/contracts/searchAttributes';
import { exchangeAsChild } from '../participant/exchange';
import type { LinkingConsentsIDDeleteResponse } from './appApi';
import { enter, errored } from './appCalls';
import { timedOut } from './sending';

export interface PispUnlinkingInput {
  consentId: string;
  /** The DFSP that granted the consent: the DELETE is addressed to it (linking rule 6), wherever the Auth service is. */
  dfsp: string;
  /** The hub's Auth service (AUTH_SERVICE_ID), which revokes a consent it holds and says so itself. */
  authService: string;
  /** REQUEST_TIMEOUT_MS: how long the app waits for PATCH /consents/{ID}. */
  requestTimeoutMs: number;
  /** A revocation the PISP did not ask for (an unsolicited PATCH /consents/{ID} REVOKED): recorded, nothing sent. */
  revokedAt?: string;
}

/**
 * `pispUnlinking/<consentId>`: the consent is revoked, and the connector no longer signs with its GENERIC key, so a
 * payment from its accounts is refused here as from an account never linked. A run that ends consentRevoked is the
 * record of it (activities/pisp/linkedConsents.ts reads it), kept by Temporal across restarts and workers.
 * Either the user unlinks an account from the PISP's app (Document 1, linking rules 5 and 6): DELETE /consents/{ID}
 * goes to the DFSP; the switch hands it to its Auth service when that holds the consent, else to the DFSP. Whoever
 * revokes it answers with PATCH /consents/{ID} REVOKED (or PUT /consents/{ID}/error), keyed by the consentId: an
 * exchange named after it receives it. Or the DFSP revoked it on its own and told the PISP (Document 1: PATCH
 * /consents/{ID}, "a DFSP-initiated change such as unlinking").
 */
export async function pispUnlinking({
  consentId,
  dfsp,
  authService,
  requestTimeoutMs,
  revokedAt,
}: PispUnlinkingInput): Promise<LinkingConsentsIDDeleteResponse> {
  upsertSearchAttributes([
    { key: Dfsp, value: dfsp },
    { key: ConsentId, value: consentId },
  ]);
  if (revokedAt) return revoked(consentId, revokedAt);
  enter('start');
  const unlinked = await exchangeAsChild({
    request: { to: dfsp, resource: 'consents', name: 'delete', id: consentId },
    answerId: consentId,
    answeredBy: ['patch', 'error'],
    // Only whoever holds the consent can revoke it: the DFSP, or the hub's Auth service the switch handed the DELETE to.
    from: [dfsp, authService],
    waitMs: requestTimeoutMs,
  });
  if (unlinked.kind === 'refused') return errored(unlinked.errorInformation);
  if (unlinked.kind === 'timedOut') return errored(timedOut('PATCH /consents/{ID}', requestTimeoutMs));
  const { errorInformation, status, revokedAt: at } = unlinked.message.body as { errorInformation?: ErrorInformation; status?: string; revokedAt?: string };
  if (errorInformation) return errored(errorInformation);
  if (status !== 'REVOKED' || !at) return errored(errorOf('thirdpartyAccountLinkingError', `PATCH /consents/${consentId} did not revoke it`));
  return revoked(consentId, at);
}

function revoked(consentId: string, revokedAt: string): LinkingConsentsIDDeleteResponse {
  enter('consentRevoked');
  return { consent: { consentId, status: 'REVOKED', revokedAt }, currentState: 'consentRevoked' };
}
