import crypto from 'node:crypto';
import test from 'ava';
import { publicKeyOf, sign, signatureProblem, SignedHeaders } from '../../../../../activities/shared/platform/jws';
import { mojaloopJws, mojaloopJwsMissing } from '../../../../helpers/mojaloopJws';
import { rsaKeyPair } from '../../../../helpers/keyPairs';

const rsa = () => rsaKeyPair();
const payer = rsa();
const stranger = rsa();
const pem = (key: crypto.KeyObject) => key.export({ type: key.type === 'private' ? 'pkcs8' : 'spki', format: 'pem' }).toString();

const body = JSON.stringify({ transferId: crypto.randomUUID(), payerFsp: 'payerfsp', payeeFsp: 'payeefsp', amount: { amount: '100', currency: 'USD' } });
const headers: SignedHeaders = {
  date: 'Tue, 02 Jun 2026 10:00:00 GMT',
  'fspiop-source': 'payerfsp',
  'fspiop-destination': 'payeefsp',
  'fspiop-uri': '/transfers',
  'fspiop-http-method': 'POST',
};

async function signed(by = payer.privateKey, signedHeaders: SignedHeaders = headers, text = body): Promise<SignedHeaders> {
  return { ...signedHeaders, 'fspiop-signature': await sign(signedHeaders, text, by) };
}

const problem = (received: SignedHeaders, text = body, key = payer.publicKey) => signatureProblem({ headers: received, body: text }, key);

test("a signature made here holds with the signer's public key", async (t) => {
  t.is(await problem(await signed()), undefined);
});

test('a signature by another key, or over an altered body, is refused', async (t) => {
  t.regex((await problem(await signed(stranger.privateKey))) ?? '', /does not verify/);
  const altered = body.replace('"100"', '"900"');
  t.regex((await problem(await signed(), altered)) ?? '', /does not verify/);
});

test('a message whose FSPIOP-Source, FSPIOP-URI, FSPIOP-HTTP-Method, Date or FSPIOP-Destination differ from the signed ones is refused', async (t) => {
  const genuine = await signed();
  for (const [name, value] of [
    ['fspiop-source', 'otherfsp'],
    ['fspiop-uri', '/transfers/5f6c0b1e-0d5a-4b8e-9b7e-2f1c3a4d5e6f'],
    ['fspiop-http-method', 'PUT'],
    ['date', 'Wed, 03 Jun 2026 10:00:00 GMT'],
    ['fspiop-destination', 'otherfsp'],
  ]) {
    t.regex((await problem({ ...genuine, [name]: value })) ?? '', /is not the message's/, name);
  }
});

test('a message naming a destination its signature does not name is refused; one without a signed Date may carry one', async (t) => {
  const { 'fspiop-destination': _, date: __, ...bare } = headers;
  const genuine = await signed(payer.privateKey, bare);
  t.regex((await problem({ ...genuine, 'fspiop-destination': 'payeefsp' })) ?? '', /FSPIOP-Destination/);
  t.is(await problem({ ...genuine, date: 'Tue, 02 Jun 2026 10:00:00 GMT' }), undefined);
});

test('a message with no signature, a signature that is not JSON, or no FSPIOP-URI is refused', async (t) => {
  t.regex((await problem(headers)) ?? '', /no FSPIOP-Signature/);
  t.regex((await problem({ ...headers, 'fspiop-signature': 'c2lnbmF0dXJl' })) ?? '', /not JSON/);
  t.regex((await problem({ ...(await signed()), 'fspiop-uri': undefined })) ?? '', /FSPIOP-URI/);
});

test('only RS256 holds: an HS256 signature keyed with the public key, and an unsigned one, are refused', async (t) => {
  const protectedHeader = Buffer.from(
    JSON.stringify({ alg: 'HS256', 'FSPIOP-URI': '/transfers', 'FSPIOP-HTTP-Method': 'POST', 'FSPIOP-Source': 'payerfsp' }),
  ).toString('base64url');
  const input = `${protectedHeader}.${Buffer.from(body).toString('base64url')}`;
  const hmac = crypto.createHmac('sha256', pem(payer.publicKey)).update(input).digest('base64url');
  const { 'fspiop-destination': _, date: __, ...bare } = headers;
  t.regex((await problem({ ...bare, 'fspiop-signature': JSON.stringify({ signature: hmac, protectedHeader }) })) ?? '', /does not verify/);
  const none = Buffer.from(JSON.stringify({ alg: 'none', 'FSPIOP-URI': '/transfers', 'FSPIOP-HTTP-Method': 'POST', 'FSPIOP-Source': 'payerfsp' })).toString(
    'base64url',
  );
  t.regex((await problem({ ...bare, 'fspiop-signature': JSON.stringify({ signature: '', protectedHeader: none }) })) ?? '', /does not verify/);
});

test('a body changed on its way does not hold, even re-serialised to the same JSON: the bytes passed on are the bytes verified', async (t) => {
  const genuine = await signed();
  t.regex((await problem(genuine, JSON.stringify(JSON.parse(body), null, 2))) ?? '', /does not verify/);
  const duplicated = `${body.slice(0, -1)},"amount":{"amount":"1","currency":"USD"}}`;
  t.regex((await problem(genuine, duplicated)) ?? '', /does not verify/);
});

test('FSPIOP-Encryption must be covered by the signature (Document 2, encryption rule 4)', async (t) => {
  const encryption = JSON.stringify({
    encryptedFields: [{ fieldName: 'payee.name', encryptedKey: 'a', protectedHeader: 'b', initializationVector: 'c', authenticationTag: 'd' }],
  });
  t.is(await problem(await signed(payer.privateKey, { ...headers, 'fspiop-encryption': encryption })), undefined);
  t.regex((await problem({ ...(await signed()), 'fspiop-encryption': encryption })) ?? '', /FSPIOP-Encryption/);
});

test('keys that cannot verify RS256 are refused: an EC key, a 1024-bit RSA key, text that is no key', (t) => {
  const ec = crypto.generateKeyPairSync('ec', { namedCurve: 'P-256' }).publicKey;
  t.throws(() => publicKeyOf(pem(ec)), { message: /not an RSA key/ });
  const small = rsaKeyPair(1024).publicKey;
  t.throws(() => publicKeyOf(pem(small)), { message: /1024 bits/ });
  t.throws(() => publicKeyOf('not a key'), { message: /not a PEM public key/ });
  t.is(publicKeyOf(pem(payer.publicKey)).asymmetricKeyType, 'rsa');
});

// Against Mojaloop's own code, as its SDK DFSPs run it: installed by `npm run interop` into .interop/.
const withMojaloop = mojaloopJwsMissing ? test.skip : test;
if (mojaloopJwsMissing) console.warn(`jws.test: skipping the checks against Mojaloop's JwsSigner and JwsValidator: ${mojaloopJwsMissing}`);

/** A request as Mojaloop's SDK signs it: the URL it sends to, its headers, the parsed body. */
const sdkRequest = () => ({
  method: 'POST',
  uri: 'http://switch.example:3000/transfers',
  headers: { date: headers.date!, 'fspiop-source': 'payerfsp', 'fspiop-destination': 'payeefsp' } as Record<string, string>,
  body: JSON.parse(body),
});

withMojaloop("Mojaloop's JwsSigner and this signer make the same FSPIOP-Signature, byte for byte", async (t) => {
  const request = sdkRequest();
  mojaloopJws(pem(payer.privateKey), {}).sign(request);
  t.is(request.headers['fspiop-uri'], '/transfers');
  t.is(await sign(request.headers, body, payer.privateKey), request.headers['fspiop-signature']);
});

withMojaloop("a signature by Mojaloop's JwsSigner holds here, and a forged one is refused here as there", async (t) => {
  const request = sdkRequest();
  const mojaloop = mojaloopJws(pem(payer.privateKey), { payerfsp: pem(payer.publicKey) });
  mojaloop.sign(request);
  t.is(await problem(request.headers, request.body as string), undefined);
  const forged = { ...request.headers, 'fspiop-source': 'payeefsp' };
  t.truthy(await problem(forged, request.body as string, payer.publicKey));
});

withMojaloop("a signature made here holds at Mojaloop's JwsValidator; one by another key is refused there", async (t) => {
  const mojaloop = mojaloopJws(pem(payer.privateKey), { payerfsp: pem(payer.publicKey) });
  const [ours, forged] = [await signed(), await signed(stranger.privateKey)];
  t.notThrows(() => mojaloop.validate({ headers: present(ours), body: JSON.parse(body) }));
  t.throws(() => mojaloop.validate({ headers: present(forged), body: JSON.parse(body) }), { any: true, message: 'invalid signature' });
});

function present(received: SignedHeaders): Record<string, string> {
  return Object.fromEntries(Object.entries(received).filter((entry): entry is [string, string] => entry[1] !== undefined));
}
