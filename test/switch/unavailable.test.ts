import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Client, Connection } from '@temporalio/client';
import test from 'ava';
import { createSwitchApp } from '../../api/fspiop/app';
import { switchResources } from '../../api/fspiop/resources';
import { requestListener } from '../../api/http/gateway';
import { transferBody } from '../helpers/fspiopBodies';
import { startSwitch, SwitchHarness } from '../helpers/switchHarness';
import { openTestHub } from '../helpers/worker';
import type { Hub } from '../../activities/hub/services';

let hub: SwitchHarness;
let payer: string;
let payee: string;
test.before(async () => {
  hub = await startSwitch();
  payer = (await hub.provision()).name;
  payee = (await hub.provision()).name;
});
test.after.always(async () => {
  await hub?.close();
});

/** The switch gateway on a port of its own, over the given hub and Temporal client. */
async function gatewayWith(parts: Pick<Hub, 'services' | 'directory' | 'sender' | 'log'>, temporal: Client) {
  const app = createSwitchApp({ ...parts, config: { taskQueue: hub.worker.taskQueue }, temporal }, switchResources, []);
  const server = http.createServer(requestListener(app));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}

async function postTransfer(url: string) {
  const body = transferBody(payer, payee, '1');
  const response = await fetch(`${url}/transfers`, {
    method: 'POST',
    headers: {
      accept: 'application/vnd.interoperability.transfers+json;version=1.1',
      'content-type': 'application/vnd.interoperability.transfers+json;version=1.1',
      date: new Date().toUTCString(),
      'fspiop-source': payer,
      'fspiop-destination': payee,
    },
    body: Buffer.from(JSON.stringify(body)),
  });
  return { status: response.status, body: (await response.json()) as { errorInformation: { errorCode: string } } };
}

test('while Temporal is unreachable a request is answered 503 with 2003, never 500', async (t) => {
  const connection = await Connection.connect({ address: process.env.TEMPORAL_ADDRESS! });
  const temporal = new Client({ connection, namespace: 'default' });
  const gateway = await gatewayWith(hub.hub, temporal);
  await connection.close();
  try {
    const { status, body } = await postTransfer(gateway.url);
    t.is(status, 503);
    t.is(body.errorInformation.errorCode, '2003');
  } finally {
    await gateway.close();
  }
});

test('while the database is unreachable a request is answered 503 with 2003, never 500', async (t) => {
  const down = await openTestHub(hub.services.participants.hubName);
  await down.close();
  const gateway = await gatewayWith(down, hub.worker.client);
  try {
    const { status, body } = await postTransfer(gateway.url);
    t.is(status, 503);
    t.is(body.errorInformation.errorCode, '2003');
  } finally {
    await gateway.close();
  }
});
