import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { setTimeout } from 'node:timers/promises';
import { Connection } from '@temporalio/client';
import { TestWorkflowEnvironment } from '@temporalio/testing';
import { searchAttributeTypes } from '../../temporal/namespaces';
import { freePort } from '../../temporal/ports';
import { quietTemporalRuntime } from './worker';

/** How long the JVM of the Java test server may take to serve; on a busy machine running test files side by side, many seconds. */
const READY_TIMEOUT_MS = 120_000;

/** The SDK's own environment over a server it did not start (its `create`, private in the typings, does the wiring). */
const overExistingServer = (TestWorkflowEnvironment as unknown as { create(options: object): Promise<TestWorkflowEnvironment> }).create.bind(
  TestWorkflowEnvironment,
);

/**
 * Temporal's time-skipping test server, for tests of timers where real time is not the point: while the test awaits a
 * workflow's result through `client`, the server jumps over every wait, so an hour's expiration passes in milliseconds.
 * `npm test` installs the server (TEMPORAL_TEST_SERVER, temporal/testServer.ts); it registers the hub's search attributes.
 *
 * That server is started here, not by the SDK: the SDK gives it 5 s to answer, which the Java test server's JVM
 * overruns when the machine is busy (three test files at once on two cores), failing the file's before hook.
 */
export async function startTimeSkipping(): Promise<TestWorkflowEnvironment> {
  quietTemporalRuntime();
  const path = process.env.TEMPORAL_TEST_SERVER;
  if (path) return startInstalled(path);
  const environment = await TestWorkflowEnvironment.createTimeSkipping();
  await environment.connection.operatorService.addSearchAttributes({ namespace: 'default', searchAttributes: searchAttributeTypes() });
  return environment;
}

/**
 * The installed server, started as the SDK starts it (`<path> <port>`) and given READY_TIMEOUT_MS to answer, then the
 * SDK's environment over it; its teardown stops the server, as does this process's exit.
 */
async function startInstalled(path: string): Promise<TestWorkflowEnvironment> {
  const address = `127.0.0.1:${await freePort()}`;
  const server = spawn(path, [address.split(':')[1]], { stdio: 'ignore' });
  const kill = () => server.kill('SIGKILL');
  process.once('exit', kill);
  const stop = async () => {
    process.removeListener('exit', kill);
    if (server.exitCode !== null || server.signalCode !== null) return;
    const exited = once(server, 'exit');
    kill();
    await exited;
  };
  try {
    await untilServing(address, () => server.exitCode ?? server.signalCode);
    const environment = await overExistingServer({ server: { type: 'existing' }, address, supportsTimeSkipping: true });
    await environment.connection.operatorService.addSearchAttributes({ namespace: 'default', searchAttributes: searchAttributeTypes() });
    const teardown = environment.teardown.bind(environment);
    environment.teardown = () => teardown().finally(stop);
    return environment;
  } catch (err) {
    await stop();
    throw err;
  }
}

/** Resolves once the server at `address` takes a connection (the client's own check of it); fails if it exits first or READY_TIMEOUT_MS passes. */
async function untilServing(address: string, exited: () => number | string | null): Promise<void> {
  const deadline = Date.now() + READY_TIMEOUT_MS;
  for (;;) {
    if (exited() !== null) throw new Error(`the time-skipping test server exited (${exited()}) before it served`);
    try {
      await (await Connection.connect({ address, connectTimeout: 1_000 })).close();
      return;
    } catch (err) {
      if (Date.now() > deadline) throw new Error(`the time-skipping test server on ${address} did not serve within ${READY_TIMEOUT_MS} ms: ${String(err)}`);
    }
    await setTimeout(250);
  }
}
