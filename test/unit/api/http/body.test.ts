import { Readable } from 'node:stream';
import test from 'ava';
import type { Context } from 'koa';
import { MAX_PAYLOAD_BYTES, readJsonBody } from '../../../../api/http/body';
import { HttpError } from '../../../../activities/shared/platform/httpError';

// A request body as every gateway reads it (FSPIOP, third-party, admin): each way it can be wrong becomes the spec's
// error, and the text is kept as sent, for the request hash and to pass on what the sender signed.

/** A request whose body arrives as `chunks`, as Koa hands it over. */
const requestOf = (...chunks: Buffer[]) => ({ req: Readable.from(chunks), state: {} }) as unknown as Context;
const sent = (text: string) => requestOf(Buffer.from(text, 'utf8'));

async function refusal(ctx: Context): Promise<{ status: number; errorCode: string; errorDescription: string } | undefined> {
  try {
    await readJsonBody(ctx);
    return undefined;
  } catch (error) {
    if (error instanceof HttpError) return { status: error.status, ...error.errorInformation };
    throw error;
  }
}

test('a JSON body is parsed, its text kept byte for byte as sent', async (t) => {
  const text = '{ "transferId" : "a",\n  "amount": {"amount":"1.50", "currency":"USD"} }';
  t.deepEqual(await readJsonBody(sent(text)), { body: { transferId: 'a', amount: { amount: '1.50', currency: 'USD' } }, text });
  const split = Buffer.from('{"name":"Zoë"}', 'utf8');
  t.deepEqual((await readJsonBody(requestOf(split.subarray(0, 11), split.subarray(11)))).body, { name: 'Zoë' }, 'a character split between chunks');
});

test('an empty body, or one of whitespace only, is no body', async (t) => {
  t.is((await readJsonBody(requestOf())).body, undefined);
  t.is((await readJsonBody(sent(' \n\t'))).body, undefined);
});

test('a body is read once: the signature check and the route get the same reading', async (t) => {
  const ctx = sent('{"a":1}');
  const first = await readJsonBody(ctx);
  t.is(await readJsonBody(ctx), first);
});

test('a body over the FSPIOP payload limit of 5242880 bytes is 400 with 3104; one of exactly that size is read', async (t) => {
  t.is(MAX_PAYLOAD_BYTES, 5_242_880);
  const ofSize = (bytes: number) => `"${'x'.repeat(bytes - 2)}"`;
  t.is((await readJsonBody(sent(ofSize(MAX_PAYLOAD_BYTES)))).text.length, MAX_PAYLOAD_BYTES);
  t.deepEqual(await refusal(sent(ofSize(MAX_PAYLOAD_BYTES + 1))), {
    status: 400,
    errorCode: '3104',
    errorDescription: 'Too large payload - payload exceeds 5242880 bytes',
  });
});

test('a body that is not JSON, or not UTF-8, is 400 with 3101: never passed on with its bytes replaced', async (t) => {
  t.deepEqual(await refusal(sent('{"transferId": ')), {
    status: 400,
    errorCode: '3101',
    errorDescription: 'Malformed syntax - request body is not valid JSON',
  });
  t.deepEqual(await refusal(sent("{'a': 1}")), { status: 400, errorCode: '3101', errorDescription: 'Malformed syntax - request body is not valid JSON' });
  const latin1 = Buffer.concat([Buffer.from('{"name":"Zo'), Buffer.from([0xeb]), Buffer.from('"}')]);
  t.deepEqual(await refusal(requestOf(latin1)), { status: 400, errorCode: '3101', errorDescription: 'Malformed syntax - request body is not valid UTF-8' });
});

test('a body nested deeper than 32 levels is 400 with 3100; brackets inside strings do not count', async (t) => {
  const nested = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`;
  t.truthy((await readJsonBody(sent(nested(32)))).body);
  t.deepEqual(await refusal(sent(nested(33))), {
    status: 400,
    errorCode: '3100',
    errorDescription: 'Generic validation error - request body nests deeper than 32 levels',
  });
  t.deepEqual(await refusal(sent(`{"a":${nested(100_000)}}`)), {
    status: 400,
    errorCode: '3100',
    errorDescription: 'Generic validation error - request body nests deeper than 32 levels',
  });
  t.truthy((await readJsonBody(sent(JSON.stringify({ note: `${'['.repeat(40)}\\"{{{{` })))).body);
});
