import type { DfspDependencies } from '../dependencies';

/** The DFSP's third-party activities (Document 1): checks and records against its ThirdpartyBackend. */
// eslint-disable-next-line @typescript-eslint/no-unused-vars
export function createThirdpartyActivities(deps: DfspDependencies) {
  return {};
}
