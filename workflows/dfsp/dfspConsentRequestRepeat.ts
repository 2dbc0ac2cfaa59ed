import { errorInformation } from '../../activities/shared/contracts/errors';
import type { OutgoingMessage } from '../../activities/shared/contracts/peers';
import { messages } from '../participant/participantProxies';
import type { DfspLinkingView } from './thirdpartyContracts';

export interface ConsentRequestRepeatInput {
  consentRequestId: string;
  /** FSPIOP-Source of the repeated POST /consentRequests. */
  requester: string;
  /** How the linking the ID names ended, as its workflow answered the query; absent when it cannot be read. */
  view?: DfspLinkingView;
}

/**
 * `dfspConsentRequestRepeat/<consentRequestId>/<key>`: a POST /consentRequests whose consentRequestId names a linking
 * that has ended. It is never run again (a second consent from one request); the sender is answered as the DFSP
 * answered it. Its own PISP is told the linking's outcome again, on the resource it was told on: PATCH
 * /consents/{ID} VERIFIED for a linked account, the error on the consent request or on the consent for one that
 * failed. Anyone else, or a linking whose state cannot be read, is PUT /consentRequests/{ID}/error 3106: the ID is used.
 */
export async function dfspConsentRequestRepeat({ consentRequestId, requester, view }: ConsentRequestRepeatInput): Promise<string> {
  const send = (message: Omit<OutgoingMessage, 'to'>) => messages.sendToSwitch({ to: requester, ...message });
  if (view?.pisp === requester && view.state === 'LINKED' && view.consentId) {
    await send({ resource: 'consents', name: 'patch', id: view.consentId, body: { credential: { status: 'VERIFIED' } } });
    return 'LINKED';
  }
  if (view?.pisp === requester && view.state === 'FAILED' && view.errorInformation) {
    const on = view.consentId ? { resource: 'consents' as const, id: view.consentId } : { resource: 'consentRequests' as const, id: consentRequestId };
    await send({ ...on, name: 'error', body: { errorInformation: view.errorInformation } });
    return 'FAILED';
  }
  const used = errorInformation('modifiedRequest', `consentRequestId ${consentRequestId} is already used`);
  await send({ resource: 'consentRequests', name: 'error', id: consentRequestId, body: { errorInformation: used } });
  return 'used';
}
