import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import test from 'ava';
import { connectorExposureProblem, loadConnectorConfig } from '../../../../activities/connector/connectorConfig';
import { rsaKeyPair } from '../../../helpers/keyPairs';

// The connector's start-up guard: beyond loopback it serves only when it can tell the switch from anyone else, since
// what the switch says as itself decides a transfer at the payer and the payee.
const keys = fs.mkdtempSync(path.join(os.tmpdir(), 'connector-keys-'));
const withHubKey = fs.mkdtempSync(path.join(os.tmpdir(), 'connector-keys-'));
const hubKey = rsaKeyPair().publicKey.export({ type: 'spki', format: 'pem' });
fs.writeFileSync(path.join(withHubKey, 'Hub.pem'), hubKey);
test.after.always(() => [keys, withHubKey].forEach((dir) => fs.rmSync(dir, { recursive: true, force: true })));

const problemOf = (env: Record<string, string>) => connectorExposureProblem(loadConnectorConfig('dfsp', { DFSP_ID: 'dfspa', ...env }));

test('on loopback nobody but this machine reaches the inbound API: the connector serves as it is', (t) => {
  t.is(problemOf({}), undefined);
  t.is(problemOf({ HOST: 'localhost' }), undefined);
});

test('beyond loopback with nothing that tells the switch from a peer, the connector refuses to serve and names the settings', (t) => {
  const problem = problemOf({ HOST: '0.0.0.0' });
  t.truthy(problem);
  t.regex(problem!, /INBOUND_MUTUAL_TLS_ENABLED/);
  t.regex(problem!, /VALIDATE_INBOUND_JWS/);
  t.regex(problem!, /INBOUND_ALLOW_UNAUTHENTICATED/);
});

test("beyond loopback the switch's client certificate, signatures with its key, or a trusted network each let the connector serve", (t) => {
  const files = { IN_SERVER_CERT_PATH: 'server.crt', IN_SERVER_KEY_PATH: 'server.key', IN_CA_CERT_PATH: 'ca.crt' };
  t.is(problemOf({ HOST: '0.0.0.0', INBOUND_MUTUAL_TLS_ENABLED: 'true', ...files }), undefined);
  t.is(problemOf({ HOST: '0.0.0.0', VALIDATE_INBOUND_JWS: 'true', JWS_VERIFICATION_KEYS_DIRECTORY: withHubKey }), undefined);
  t.is(problemOf({ HOST: '0.0.0.0', INBOUND_ALLOW_UNAUTHENTICATED: 'true' }), undefined);
});

test("checking signatures without the switch's key is refused anywhere: every message the switch says as itself would be refused", (t) => {
  t.regex(problemOf({ VALIDATE_INBOUND_JWS: 'true', JWS_VERIFICATION_KEYS_DIRECTORY: keys }) ?? '', /Hub\.pem/);
  t.regex(problemOf({ VALIDATE_INBOUND_JWS: 'true' }) ?? '', /Hub\.pem/);
  t.regex(problemOf({ VALIDATE_INBOUND_JWS: 'true', JWS_VERIFICATION_KEYS_DIRECTORY: withHubKey, HUB_PARTICIPANT_NAME: 'switch' }) ?? '', /switch\.pem/);
});

test('mutual TLS settings that cannot work stop the connector with the names of what is missing', (t) => {
  t.throws(() => problemOf({ INBOUND_MUTUAL_TLS_ENABLED: 'true' }), { message: /IN_SERVER_CERT_PATH and IN_SERVER_KEY_PATH/ });
  t.throws(() => problemOf({ INBOUND_MUTUAL_TLS_ENABLED: 'true', IN_SERVER_CERT_PATH: 'a', IN_SERVER_KEY_PATH: 'b' }), { message: /IN_CA_CERT_PATH/ });
  t.throws(() => problemOf({ OUTBOUND_MUTUAL_TLS_ENABLED: 'true' }), { message: /OUT_CLIENT_CERT_PATH and OUT_CLIENT_KEY_PATH/ });
});
