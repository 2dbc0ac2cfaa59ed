import { proxyActivities } from '@temporalio/workflow';
import type { CredentialActivities } from '../../activities/pisp/genericCredentials';

export { messages } from '../participant/participantProxies';

/** The connector's GENERIC keys: local computations, so a failure is a bug or a missing consent, not worth a long retry. */
export const credentials = proxyActivities<CredentialActivities>({
  startToCloseTimeout: '10 seconds',
  retry: { maximumAttempts: 3 },
});
