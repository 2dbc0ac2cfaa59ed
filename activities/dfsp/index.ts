import { createMessageActivities } from '../connector/messageActivities';
import type { DfspDependencies } from './dependencies';
import { createFspiopActivities } from './fspiop/fspiopActivities';
import { createThirdpartyActivities } from './thirdparty/thirdpartyActivities';

/** The DFSP connector's activities: sending to the switch, and the bank's own systems behind both APIs. */
export function createDfspActivities(deps: DfspDependencies) {
  return { ...createMessageActivities(deps.sender), ...createThirdpartyActivities(deps), ...createFspiopActivities(deps) };
}

export type DfspActivities = ReturnType<typeof createDfspActivities>;
