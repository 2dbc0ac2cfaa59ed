import type { AddressInfo } from 'node:net';
import { Client, Connection } from '@temporalio/client';
import test from 'ava';
import { createSwitchApp } from '../../api/fspiop/switchApp';
import { switchResources } from '../../api/fspiop/switchResources';
import { gatewayServer } from '../../api/http/gateway';
import { transferBody } from '../helpers/fspiopBodies';
import { withSwitch } from '../helpers/switchHarness';
import { openTestHub } from '../helpers/worker';
import type { Hub } from '../../activities/hub/hubServices';

const fixture = withSwitch(test);

/** What a POST /transfers gets from a switch gateway of its own, wired to the given hub and Temporal client. */
async function answerFrom(parts: Pick<Hub, 'services' | 'directory' | 'sender' | 'authService' | 'log'>, temporal: Client) {
  const app = createSwitchApp({ ...parts, config: { taskQueue: fixture.hub.worker.taskQueue }, temporal }, switchResources, []);
  const server = gatewayServer(app);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    return await postTransfer(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
  } finally {
    await new Promise((resolve) => server.close(resolve));
  }
}

async function postTransfer(url: string) {
  const body = transferBody(fixture.payer, fixture.payee, '1');
  const response = await fetch(`${url}/transfers`, {
    method: 'POST',
    headers: {
      accept: 'application/vnd.interoperability.transfers+json;version=1.1',
      'content-type': 'application/vnd.interoperability.transfers+json;version=1.1',
      date: new Date().toUTCString(),
      'fspiop-source': fixture.payer,
      'fspiop-destination': fixture.payee,
    },
    body: Buffer.from(JSON.stringify(body)),
  });
  return { status: response.status, code: ((await response.json()) as { errorInformation: { errorCode: string } }).errorInformation.errorCode };
}

test('while Temporal is unreachable a request is answered 503 with 2003, never 500', async (t) => {
  const connection = await Connection.connect({ address: process.env.TEMPORAL_ADDRESS! });
  const closed = new Client({ connection, namespace: 'default' });
  await connection.close();
  t.deepEqual(await answerFrom(fixture.hub.hub, closed), { status: 503, code: '2003' });
});

test('while the database is unreachable a request is answered 503 with 2003, never 500', async (t) => {
  const down = await openTestHub(fixture.hub.services.participants.hubName);
  await down.close();
  t.deepEqual(await answerFrom(down, fixture.hub.worker.client), { status: 503, code: '2003' });
});
