import test from 'ava';
import { createMessageActivities } from '../../activities/connector/messageActivities';
import { PeerSender } from '../../activities/connector/peerSender';
import { handTo, inboundRouter, InboundRoute } from '../../api/connector/inboundRoutes';
import { participantWorkflowIds, PeerMessage } from '../../activities/shared/contracts/peers';
import { validateFspiop } from '../../activities/shared/contracts/schemas';
import { startConnector, RunningConnector } from '../../worker/connector';
import type { ExchangeOutcome } from '../../workflows/participant/exchange';
import { connectorBundle, connectorConfig, onboardConnector, testLog } from '../helpers/connectors';
import { uniqueName } from '../helpers/database';
import { quoteBody } from '../helpers/fspiopBodies';
import { useSwitch, SwitchHarness } from '../helpers/switchHarness';

let hub: SwitchHarness;
let connector: RunningConnector;

/** A connector that only takes answers to quotes: each goes to the exchange waiting for it, by the quote's ID. */
const quoteAnswers: InboundRoute[] = (['answer', 'error'] as const).map((name) => ({
  resource: 'quotes',
  name,
  validate: (body) => validateFspiop(name === 'answer' ? 'QuotesIDPutResponse' : 'ErrorInformationObject', body),
  deliver: (message: PeerMessage, deps) => handTo(participantWorkflowIds.exchange('quotes', message.id!), message, deps),
}));

useSwitch(test, async (started) => {
  hub = started;
  const config = connectorConfig(hub, uniqueName());
  const log = testLog();
  connector = await startConnector('dfsp', config, log, (client) => ({
    workflowsPath: require.resolve('../../workflows/dfsp'),
    workflowBundlePath: connectorBundle('dfsp'),
    activities: createMessageActivities(new PeerSender({ ...config, log })),
    inbound: [inboundRouter(quoteAnswers, { client, taskQueue: config.taskQueue, log, hubParticipantName: config.hubParticipantName, senderProof: 'network' })],
    outbound: [],
  }));
  await onboardConnector(hub, connector);
});

test.after.always(async () => {
  await connector?.stop();
});

function quoteExchange(payee: string, amount: string, waitMs = 15_000): Promise<ExchangeOutcome> {
  const body = quoteBody(connector.config.participantId, payee, amount);
  return connector.client.workflow.execute('exchange', {
    workflowId: participantWorkflowIds.exchange('quotes', body.quoteId),
    taskQueue: connector.config.taskQueue,
    args: [{ request: { to: payee, resource: 'quotes', name: 'request', body }, answerId: body.quoteId, waitMs }],
  });
}

test("a connector's request goes to the switch as its own, and the callback the switch relays answers it", async (t) => {
  const payee = await hub.provision();
  payee.react(async (request) => {
    if (request.method !== 'POST') return;
    await hub.fspiop('PUT', `/quotes/${request.body.quoteId}`, {
      source: payee.name,
      destination: connector.config.participantId,
      body: {
        transferAmount: request.body.amount,
        expiration: new Date(Date.now() + 60_000).toISOString(),
        ilpPacket:
          'AYIBgQAAAAAAAASwNGxldmVsb25lLmRmc3AxLm1lci45T2RTOF81MDdqUUZERmZlakgyOVc4bXFmNEpLMHlGTFGCAUBQU0svMS4wCk5vbmNlOiB1SXlweUYzY3pYSXBFdzVVc05TYWh3CkVuY3J5cHRpb246IG5vbmUKUGF5bWVudC1JZDogMTMyMzZhM2ItOGZhOC00MTYzLTg0NDctNGMzZWQzZGE5OGE3CgpDb250ZW50LUxlbmd0aDogMTM1CkNvbnRlbnQtVHlwZTogYXBwbGljYXRpb24vanNvbgpTZW5kZXItSWRlbnRpZmllcjogOTI4MDYzOTEKCiJ7XCJmZWVcIjowLFwidHJhbnNmZXJDb2RlXCI6XCJpbnZvaWNlXCIsXCJkZWJpdE5hbWVcIjpcImFsaWNlIGNvb3BlclwiLFwiY3JlZGl0TmFtZVwiOlwibWVyIGNoYW50XCIsXCJkZWJpdElkZW50aWZpZXJcIjpcIjkyODA2MzkxXCJ9IgA',
        condition: 'f5sqb7tBTWPd5Y8BDFdMm9BJR_MNI4isf8p8n4D5pHA',
      },
    });
  });
  const outcome = await quoteExchange(payee.name, '12');
  t.is(outcome.kind, 'answered');
  if (outcome.kind !== 'answered') return;
  t.is(outcome.message.name, 'answer');
  t.is(outcome.message.source, payee.name);
  t.deepEqual((outcome.message.body as { transferAmount: unknown }).transferAmount, { amount: '12', currency: 'USD' });
  const forwarded = await payee.waitFor((r) => r.method === 'POST' && r.path === '/quotes');
  t.is(forwarded.headers['fspiop-source'], connector.config.participantId);
  t.is(forwarded.headers['fspiop-destination'], payee.name);
  t.is(forwarded.headers['fspiop-uri'], '/quotes');
});

test("a payee's error answers the connector's request with the payee's ErrorInformation", async (t) => {
  const payee = await hub.provision();
  const rejection = { errorCode: '5101', errorDescription: 'Payee rejected quote' };
  payee.react(async (request) => {
    if (request.method === 'POST')
      await hub.fspiop('PUT', `/quotes/${request.body.quoteId}/error`, {
        source: payee.name,
        destination: connector.config.participantId,
        body: { errorInformation: rejection },
      });
  });
  const outcome = await quoteExchange(payee.name, '3');
  t.true(outcome.kind === 'answered' && outcome.message.name === 'error');
  if (outcome.kind === 'answered') t.deepEqual(outcome.message.body, { errorInformation: rejection });
});

test('a request the switch refuses ends the exchange with the switch’s error, and one nobody answers times out', async (t) => {
  const refused = await quoteExchange('no-such-fsp', '1');
  t.is(refused.kind, 'answered', 'the switch accepts the POST and answers its error as a callback');
  if (refused.kind === 'answered') t.is(refused.message.name, 'error');
  const silent = await hub.provision();
  t.deepEqual(await quoteExchange(silent.name, '1', 1_500), { kind: 'timedOut' });
});
