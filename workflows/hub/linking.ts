import { ConsentId } from '../../activities/shared/contracts/searchAttributes';
import type { ObservedMessage } from '../../activities/shared/contracts/observedConversations';
import { observe, ObserverOutcome, ObserverScript } from '../kit/observer';

/** A linking's phases (Document 1, "Linking phases"), as the messages passing through the switch show them. */
const PHASES = [
  'OBSERVING',
  'CONSENT_REQUESTED',
  'AUTHENTICATING',
  'AUTHENTICATED',
  'CONSENT_GRANTED',
  'CREDENTIAL_SIGNED',
  'CREDENTIAL_REGISTERING',
  'CREDENTIAL_VERIFIED',
  'LINKED',
  'FAILED',
  'REVOKED',
] as const;
type LinkingPhase = (typeof PHASES)[number];

/** A linking the PISP does not complete within a day is over: its consent request is stale by then. */
const LINKING_WINDOW_MS = 24 * 60 * 60 * 1000;

function phaseAfter({ resource, message, facts }: ObservedMessage): LinkingPhase | undefined {
  if (message === 'error') return 'FAILED';
  if (resource === 'consentRequests') {
    return ({ request: 'CONSENT_REQUESTED', answer: 'AUTHENTICATING', patch: 'AUTHENTICATED' } as const)[message as string];
  }
  if (resource !== 'consents') return undefined;
  switch (message) {
    case 'request':
      // POST /consents goes first to the PISP (the grant), then, with the credential, to the Auth service.
      return facts.state === 'PENDING' ? 'CREDENTIAL_REGISTERING' : 'CONSENT_GRANTED';
    case 'answer':
      return facts.state === 'VERIFIED' ? 'CREDENTIAL_VERIFIED' : 'CREDENTIAL_SIGNED';
    case 'patch':
      return facts.state === 'REVOKED' ? 'REVOKED' : 'LINKED';
    default:
      return undefined;
  }
}

const linkingScript: ObserverScript<LinkingPhase> = {
  order: PHASES,
  final: ['LINKED', 'FAILED', 'REVOKED'],
  stateAfter: phaseAfter,
  searchAttributes: ({ facts }) => (facts.consentId ? [{ key: ConsentId, value: facts.consentId }] : []),
  deadline: () => undefined,
  defaultWindowMs: LINKING_WINDOW_MS,
};

/**
 * `linking/<consentRequestId>`: a PISP linking a user's account at a DFSP (Document 1, "Linking"), observed as its
 * messages pass the switch: the consent request, authentication, the grant, the credential's registration with the
 * Auth service and the DFSP's final PATCH. The switch routes every message whatever this workflow says.
 */
export async function linking(): Promise<ObserverOutcome> {
  return observe(linkingScript);
}
