import crypto from 'node:crypto';
import test from 'ava';
import fc from 'fast-check';
import { AccountLookup } from '../../activities/hub/lookup/accountLookup';
import { TestCa } from '../helpers/certificates';
import type { SimulatedDfsp } from '../helpers/dfsp';
import type { ClientTls } from '../helpers/http';
import { HUB_ID, startSwitch, type SwitchHarness } from '../helpers/switchHarness';
import { AUTH_SERVICE } from '../helpers/thirdpartyFlows';
import { operationsOf, type Operation } from './documents';
import { pathWith } from './samples';

// Body-less forgeries. Mojaloop signs only messages with a body, so nothing in a GET or a DELETE proves who sent it:
// JWS cannot refuse an unsigned DELETE /participants/{Type}/{ID} or DELETE /consents/{ID} in another FSP's name. Beyond
// loopback the gateway therefore starts only with mutual TLS (or a trusted proxy stated), whose client certificate binds
// each connection to one participant. This campaign sends every GET and DELETE of the FSPIOP and third-party documents
// on one participant's connection in another's name: each must be refused before it is read, and nothing may change.

const RUNS = Number(process.env.FUZZ_RUNS || 500) / 2;
const SEED = Number(process.env.FUZZ_SEED || 20_240_601) + 100;

interface TlsParticipant {
  dfsp: SimulatedDfsp;
  name: string;
  tls: ClientTls;
}

let ca: TestCa;
let hub: SwitchHarness;
let payer: TlsParticipant;
let payee: TlsParticipant;
let forger: TlsParticipant;
/** A party the payer holds in the account lookup, for every currency. */
const party = { partyIdType: 'MSISDN', partyIdentifier: String(27_700_000_000 + crypto.randomInt(99_999_999)) };

test.before(async () => {
  ca = await TestCa.create('scheme-ca');
  const [server, hubClient] = await Promise.all([ca.server('switch'), ca.client(HUB_ID)]);
  hub = await startSwitch({ tls: { server, switchClientCaPath: ca.certPath, outboundClient: hubClient, outboundCaPath: ca.certPath } });
  [payer, payee, forger] = await Promise.all(['payer', 'payee', 'forger'].map((role) => tlsParticipant(role)));
  const path = `/participants/MSISDN/${party.partyIdentifier}`;
  const registered = await hub.fspiop('POST', path, { source: payer.name, body: { fspId: payer.name }, tls: payer.tls });
  if (registered.status !== 202) throw new Error(`POST ${path} answered ${registered.status}`);
  await payer.dfsp.waitFor((r) => r.method === 'PUT' && r.path === path);
});

test.after.always(async () => {
  await hub?.close();
  ca?.remove();
});

async function tlsParticipant(role: string): Promise<TlsParticipant> {
  const name = `${role}${crypto.randomBytes(4).toString('hex')}`;
  const [server, client] = await Promise.all([ca.server(name), ca.client(name)]);
  const dfsp = await hub.provision({ name, serverTls: { cert: server.cert, key: server.key, ca: ca.cert, requestCert: true, rejectUnauthorized: true } });
  return { dfsp, name, tls: { ca: ca.cert, cert: client.cert, key: client.key } };
}

/** The messages without a body of both participant APIs (not the observability endpoints, which name no sender). */
const bodyless = (): Operation[] =>
  [...operationsOf('fspiop'), ...operationsOf('thirdparty')].filter(
    (op) => (op.method === 'GET' || op.method === 'DELETE') && !['/health', '/metrics'].includes(op.path),
  );

/** Path parameters naming the payer's party where a party is named, else an ID of the kind the path takes. */
function paramsFor(operation: Operation, id: 'party' | 'fresh'): Record<string, string> {
  const values: Record<string, string> = {
    Type: 'MSISDN',
    SubId: 'home',
    ServiceType: 'THIRD_PARTY_DFSP',
    ID: id === 'party' && /\/(participants|parties)\//.test(operation.path) ? party.partyIdentifier : crypto.randomUUID(),
  };
  return Object.fromEntries([...operation.path.matchAll(/\{(\w+)\}/g)].map(([, name]) => [name, values[name] ?? crypto.randomUUID()]));
}

test(`${RUNS} GETs and DELETEs without a body, each sent on one participant's certificate in another's name, are refused 403 with 3100 (405 where the switch serves no such method) and change nothing`, async (t) => {
  const victims = [payer.name, payee.name, HUB_ID, AUTH_SERVICE, `nobody${crypto.randomBytes(3).toString('hex')}`];
  const cases = fc.sample(
    fc.record({ operation: fc.constantFrom(...bodyless()), victim: fc.constantFrom(...victims), id: fc.constantFrom('party' as const, 'fresh' as const) }),
    { seed: SEED, numRuns: RUNS },
  );
  const heardBefore = payer.dfsp.received.length + payee.dfsp.received.length;
  const wrong: string[] = [];
  const notServed = new Set<string>();
  for (const { operation, victim, id } of cases) {
    const path = pathWith(operation, paramsFor(operation, id));
    const answer = await hub.fspiop(operation.method, path, { source: victim, destination: payee.name, tls: forger.tls });
    // 405 where the switch serves no such method (GET /consentRequests/{ID}, say): refused before anything else too.
    if (answer.status === 405) notServed.add(operation.key);
    else if (answer.status !== 403 || answer.body?.errorInformation?.errorCode !== '3100') {
      wrong.push(`${operation.method} ${path} as ${victim}: ${answer.status} ${JSON.stringify(answer.body)}`);
    }
  }
  t.log(`seed ${SEED}: ${cases.length} sent, ${new Set(cases.map((c) => c.operation.key)).size} operations; not served (405): ${[...notServed].join(', ')}`);
  t.deepEqual(wrong, []);
  t.true(
    cases.some((c) => c.operation.key === 'DELETE /participants/{Type}/{ID}' && c.victim === payer.name && c.id === 'party'),
    "the campaign tries to remove the payer's party in the payer's name",
  );
  t.is(await new AccountLookup(hub.services.db).owner(party), payer.name, 'the payer still holds its party');
  t.is(payer.dfsp.received.length + payee.dfsp.received.length, heardBefore, 'nothing was passed on to the payer or the payee');
});

test("the same message in the forger's own name is taken, and the switch's rules refuse it: the party is not the forger's to remove", async (t) => {
  const path = `/participants/MSISDN/${party.partyIdentifier}`;
  t.is((await hub.fspiop('DELETE', path, { source: forger.name, tls: forger.tls })).status, 202);
  const refusal = await forger.dfsp.waitFor((r) => r.method === 'PUT' && r.path === `${path}/error`);
  t.is(refusal.body.errorInformation.errorCode, '3040');
  t.is(await new AccountLookup(hub.services.db).owner(party), payer.name);
});
