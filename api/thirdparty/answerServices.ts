import type { ServiceType } from '../../activities/shared/contracts/bodies';
import type { SwitchDependencies } from '../fspiop/switchApp';
import { startFollowUp } from '../fspiop/conversationRoutes';
import { requesterOf } from '../fspiop/routed';
import type { ThirdpartyMessage } from './thirdpartyRoutes';

/** GET /services/{ServiceType}: the switch answers itself, from a follow-up, whoever the message names as destination. */
export async function answerServices(message: ThirdpartyMessage<undefined>, deps: SwitchDependencies): Promise<boolean> {
  await startFollowUp(deps.temporal, deps.config.taskQueue, 'services', message.id, {
    kind: 'servicesGet',
    serviceType: message.id as ServiceType,
    requester: requesterOf(message.fspiop),
  });
  return true;
}
