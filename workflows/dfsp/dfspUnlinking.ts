import { log } from '@temporalio/workflow';
import type { PeerMessage } from '../../activities/shared/contracts/peers';
import { messages } from '../participant/participantProxies';
import { Inbox } from '../participant/inbox';
import { bank } from './thirdpartyProxies';

export interface DfspUnlinkingInput {
  consentId: string;
}

/**
 * `dfspUnlinking/<consentId>`: a consent the DFSP granted comes to an end (Document 1, linking rules 5 and 6).
 * - DELETE /consents/{ID} from the PISP, when the switch routes it to the DFSP (no Auth service at the switch holds
 *   the consent): the bank revokes it and the PISP is told with PATCH /consents/{ID} REVOKED, or PUT …/error when it
 *   is not that PISP's consent.
 * - PATCH /consents/{ID} REVOKED from the Auth service that holds it (the PISP unlinked through it): the bank
 *   revokes it too, so no payment is made from it any more.
 * Messages for the same consent that arrive while one is handled are taken in turn.
 */
export async function dfspUnlinking({ consentId }: DfspUnlinkingInput): Promise<number> {
  const inbox = new Inbox();
  const me = await bank.thirdpartyIdentity();
  let handled = 0;
  for (let message = await inbox.next(() => true, 60_000); message; message = await inbox.next(() => true, 0)) {
    await handle(message);
    handled += 1;
  }
  return handled;

  async function handle(message: PeerMessage): Promise<void> {
    if (message.name === 'delete') {
      const unlinked = await bank.unlinkConsent({ consentId, requester: message.source, at: new Date().toISOString() });
      const reply = { to: message.source, resource: 'consents' as const, id: consentId };
      await messages.sendToSwitch(
        unlinked.ok
          ? { ...reply, name: 'patch', body: { status: 'REVOKED', revokedAt: unlinked.revokedAt } }
          : { ...reply, name: 'error', body: { errorInformation: unlinked.errorInformation } },
      );
      return;
    }
    const body = message.body as { status?: string; revokedAt?: string };
    if (message.name === 'patch' && message.source === me.authServiceId && body.status === 'REVOKED') {
      await bank.consentRevoked({ consentId, revokedAt: body.revokedAt! });
      return;
    }
    log.info('consent message ignored', { name: message.name, source: message.source });
  }
}
