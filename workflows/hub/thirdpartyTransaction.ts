import { Currency, ConsentId, PayeeFsp } from '../../activities/shared/contracts/searchAttributes';
import type { ObservedMessage } from '../../activities/shared/contracts/observedConversations';
import { observe, ObserverOutcome, ObserverScript } from '../kit/observer';

/** A third-party transaction's steps (Document 1, "Payment flow"), as the messages passing through the switch show them. */
const STEPS = [
  'OBSERVING',
  'REQUESTED',
  'RECEIVED',
  'QUOTED',
  'AUTHORIZING',
  'AUTHORIZED',
  'USER_REJECTED',
  'VERIFYING',
  'VERIFIED',
  'VERIFICATION_FAILED',
  'COMPLETED',
  'REJECTED',
  'FAILED',
] as const;
type TransactionStep = (typeof STEPS)[number];

/** How long a request naming no expiration is observed (the PISP's own wait is not known then). */
const DEFAULT_WINDOW_MS = 60 * 60 * 1000;

function stepAfter({ resource, message, facts }: ObservedMessage): TransactionStep | undefined {
  switch (resource) {
    case 'thirdpartyRequests/transactions':
      if (message === 'request') return 'REQUESTED';
      if (message === 'error') return 'FAILED';
      if (message === 'answer') return facts.state === 'RECEIVED' || facts.state === 'PENDING' ? 'RECEIVED' : undefined;
      // The final PATCH (Document 1, payment flow rule 7): the transfer's outcome or the user's rejection.
      if (message === 'patch') return facts.state === 'COMPLETED' || facts.state === 'REJECTED' ? facts.state : undefined;
      return undefined;
    case 'quotes':
      return message === 'request' ? 'QUOTED' : undefined;
    case 'thirdpartyRequests/authorizations':
      if (message === 'request') return 'AUTHORIZING';
      if (message === 'answer') return facts.responseType === 'REJECTED' ? 'USER_REJECTED' : 'AUTHORIZED';
      return undefined;
    case 'thirdpartyRequests/verifications':
      if (message === 'request') return 'VERIFYING';
      if (message === 'answer') return facts.state === 'VERIFIED' ? 'VERIFIED' : 'VERIFICATION_FAILED';
      return message === 'error' ? 'VERIFICATION_FAILED' : undefined;
    default:
      return undefined;
  }
}

const transactionScript: ObserverScript<TransactionStep> = {
  order: STEPS,
  final: ['COMPLETED', 'REJECTED', 'FAILED'],
  stateAfter: stepAfter,
  searchAttributes: ({ facts }) => [
    ...(facts.consentId ? [{ key: ConsentId, value: facts.consentId }] : []),
    ...(facts.currency ? [{ key: Currency, value: facts.currency }] : []),
    ...(facts.payeeFsp ? [{ key: PayeeFsp, value: facts.payeeFsp }] : []),
  ],
  deadline: ({ facts }) => facts.expiration,
  defaultWindowMs: DEFAULT_WINDOW_MS,
};

/**
 * `thirdpartyTransaction/<transactionRequestId>`: a PISP's payment request from a linked account (Document 1,
 * "Payment flow"), observed as its messages pass the switch: the request, the DFSP's RECEIVED, the quote it led to,
 * the user's authorization, its verification, and the DFSP's final PATCH or error. One not over by the request's
 * expiration is marked EXPIRED. The switch routes every message whatever this workflow says.
 */
export async function thirdpartyTransaction(): Promise<ObserverOutcome> {
  return observe(transactionScript);
}
