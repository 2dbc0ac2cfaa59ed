import test from 'ava';
import type http from 'node:http';
import pino from 'pino';
import { ApplicationFailure } from '@temporalio/common';
import { PeerSender } from '../../activities/connector/peerSender';
import { CoreBankingClient } from '../../activities/dfsp/backend/coreBankingClient';
import { CoreBankingRefusal } from '../../activities/dfsp/backend/coreBanking';
import { CallbackSender } from '../../activities/hub/delivery/callbacks';
import { ParticipantDirectory } from '../../activities/hub/delivery/directory';
import { HubError } from '../../activities/shared/platform/hubError';
import { AdminHarness, HUB_NAME, startAdmin } from '../helpers/adminHarness';
import { uniqueName } from '../helpers/database';
import { serveLocally } from '../helpers/http';

// Document 2, Errors rule 2: a 3xx is not retried and needs manual investigation. Every outbound call the hub and the
// connectors make (to participants, to the switch, to a bank's backend) ends on it, and none follows it.

let admin: AdminHarness;
test.before(async () => {
  admin = await startAdmin();
});
test.after.always(async () => {
  await admin?.close();
});

const silent = pino({ level: 'silent' });

/** A server that records what reaches it and answers every request with `status` (and a Location, for a redirect). */
async function server(status: number, location?: string): Promise<{ url: string; hits: string[]; close(): Promise<void> }> {
  const hits: string[] = [];
  const { server: listening, port } = await serveLocally((request: http.IncomingMessage, _body, response) => {
    hits.push(`${request.method} ${request.url}`);
    response.writeHead(status, { 'content-type': 'application/json', ...(location ? { location } : {}) }).end(status === 200 ? '{"idType":"MSISDN"}' : '');
  });
  return { url: `http://127.0.0.1:${port}`, hits, close: () => new Promise((resolve) => listening.close(() => resolve())) };
}

/** A redirecting server and the server its Location names, which must never be reached. */
async function redirection(status: number) {
  const elsewhere = await server(200);
  const redirecting = await server(status, `${elsewhere.url}/elsewhere`);
  return { elsewhere, redirecting, close: () => Promise.all([elsewhere.close(), redirecting.close()]) };
}

for (const status of [301, 302, 307, 308]) {
  test(`the switch's delivery to a participant that answers ${status} fails for good (1001) and is not followed`, async (t) => {
    const { elsewhere, redirecting, close } = await redirection(status);
    t.teardown(close);
    const name = uniqueName();
    await admin.call('POST', '/participants', { name, currency: 'USD' });
    await admin.call('POST', `/participants/${name}/endpoints`, {
      type: 'FSPIOP_CALLBACK_URL_TRANSFER_PUT',
      value: `${redirecting.url}/transfers/{{transferId}}`,
    });
    const sender = new CallbackSender({ directory: new ParticipantDirectory(admin.services.db, 0), log: silent, hubId: HUB_NAME });

    const failure = await t.throwsAsync(
      sender.send({ to: name, endpointType: 'FSPIOP_CALLBACK_URL_TRANSFER_PUT', params: { transferId: 'x' }, method: 'PUT', headers: {}, rawBody: '{}' }),
    );
    t.true(failure instanceof HubError, 'a business failure, which Temporal does not retry');
    t.is((failure as HubError).errorInformation.errorCode, '1001');
    t.regex(failure!.message, new RegExp(`${status}`));
    t.deepEqual(redirecting.hits, ['PUT /transfers/x']);
    t.deepEqual(elsewhere.hits, [], 'the redirect was not followed');
  });

  test(`a connector's message to a switch that answers ${status} fails without retries and is not followed`, async (t) => {
    const { elsewhere, redirecting, close } = await redirection(status);
    t.teardown(close);
    const sender = new PeerSender({ participantId: 'dfspa', peerEndpoint: redirecting.url, log: silent });

    const failure = await t.throwsAsync(sender.send({ to: 'dfspb', resource: 'quotes', name: 'error', id: 'x', body: {} }));
    t.true(failure instanceof ApplicationFailure);
    t.true((failure as ApplicationFailure).nonRetryable);
    t.regex(failure!.message, new RegExp(`${status}`));
    t.deepEqual(redirecting.hits, ['PUT /quotes/x/error']);
    t.deepEqual(elsewhere.hits, [], 'the redirect was not followed');
  });

  test(`a core-banking backend that answers ${status} is a refusal and is not followed`, async (t) => {
    const { elsewhere, redirecting, close } = await redirection(status);
    t.teardown(close);
    const backend = new CoreBankingClient(redirecting.url);

    const failure = await t.throwsAsync(backend.party('MSISDN', '123'));
    t.true(failure instanceof CoreBankingRefusal, 'a refusal: the connector answers with an error rather than trying again');
    t.is((failure as CoreBankingRefusal).httpStatus, status);
    t.deepEqual(redirecting.hits, ['GET /parties/MSISDN/123']);
    t.deepEqual(elsewhere.hits, [], 'the redirect was not followed');
  });
}
