import { TestWorkflowEnvironment } from '@temporalio/testing';
import { searchAttributeTypes } from '../../temporal/namespaces';
import { quietTemporalRuntime } from './worker';

/**
 * Temporal's time-skipping test server, for tests of timers where real time is not the point: while the test awaits a
 * workflow's result through `client`, the server jumps over every wait, so an hour's expiration passes in milliseconds.
 * `npm test` installs the server (TEMPORAL_TEST_SERVER, temporal/testServer.ts); it registers the hub's search attributes.
 */
export async function startTimeSkipping(): Promise<TestWorkflowEnvironment> {
  quietTemporalRuntime();
  const path = process.env.TEMPORAL_TEST_SERVER;
  const environment = await TestWorkflowEnvironment.createTimeSkipping(path ? { server: { executable: { type: 'existing-path', path } } } : undefined);
  await environment.connection.operatorService.addSearchAttributes({ namespace: 'default', searchAttributes: searchAttributeTypes() });
  return environment;
}
