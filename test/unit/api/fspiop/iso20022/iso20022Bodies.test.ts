import test from 'ava';
import type { Context } from 'koa';
import { iso20022Bodies, operationOf } from '../../../../../api/fspiop/iso20022/iso20022Bodies';
import { HttpError } from '../../../../../activities/shared/platform/httpError';
import { iso20022Payment } from '../../../../helpers/iso20022Messages';

// The gateway in ISO 20022 mode: a participant's ISO 20022 message checked against its schema, then read as FSPIOP by
// everything after it, while its text stays what the participant sent.

/** A request whose body the gateway has already read (readJsonBody keeps its reading in ctx.state). */
function requestOf(method: string, path: string, body: unknown): Context {
  const text = JSON.stringify(body);
  return { method, path, state: { jsonBody: Promise.resolve({ body: JSON.parse(text), text }) } } as unknown as Context;
}

const read = async (ctx: Context) => (await ctx.state.jsonBody) as { body: any; text: string };

test('a pacs.008 is read as its FSPIOP transfer, and its text kept byte for byte to pass on', async (t) => {
  const payment = await iso20022Payment('payerfsp', 'payeefsp', '10');
  const ctx = requestOf('POST', '/transfers', payment.transferRequest);
  let reached = false;
  await iso20022Bodies('transfers')(ctx, async () => {
    reached = true;
  });
  t.true(reached);
  const { body, text } = await read(ctx);
  t.like(body, { transferId: payment.transfer.transferId, payerFsp: 'payerfsp', condition: payment.transfer.condition });
  t.is(text, JSON.stringify(payment.transferRequest));
});

test('a body its ISO 20022 schema refuses is the FSPIOP error Mojaloop gives (3102 for a missing element), and goes no further', async (t) => {
  const payment = await iso20022Payment('payerfsp', 'payeefsp', '10');
  const { GrpHdr: _dropped, ...headless } = payment.transferRequest;
  const error = await t.throwsAsync(() => iso20022Bodies('transfers')(requestOf('POST', '/transfers', headless), async () => t.fail()), {
    instanceOf: HttpError,
  });
  t.is(error!.status, 400);
  t.is(error!.errorInformation.errorCode, '3102');
  t.regex(error!.errorInformation.errorDescription, /\/requestBody must have required property 'GrpHdr'/);
});

test('an FSPIOP body where an ISO 20022 one belongs is refused by the schema', async (t) => {
  const payment = await iso20022Payment('payerfsp', 'payeefsp', '10');
  const error = await t.throwsAsync(() => iso20022Bodies('transfers')(requestOf('POST', '/transfers', payment.transfer), async () => t.fail()), {
    instanceOf: HttpError,
  });
  t.is(error!.errorInformation.errorCode, '3102');
});

test('the error path takes the pacs.002 error schema, the answer path the pacs.002 status one', async (t) => {
  const payment = await iso20022Payment('payerfsp', 'payeefsp', '10');
  const error = await t.throwsAsync(() => iso20022Bodies('transfers')(requestOf('PUT', '/transfers/x/error', payment.fulfil), async () => t.fail()));
  t.is((error as HttpError).status, 400);
  const ctx = requestOf('PUT', '/transfers/x', payment.fulfil);
  await iso20022Bodies('transfers')(ctx, async () => undefined);
  t.is((await read(ctx)).body.transferState, 'COMMITTED');
});

test('the operation of a message is its method, and /error for an error callback; a GET has no body to read', (t) => {
  t.is(operationOf('POST', '/quotes'), 'post');
  t.is(operationOf('PUT', '/quotes/abc'), 'put');
  t.is(operationOf('PUT', '/parties/MSISDN/123/error'), 'putError');
  t.is(operationOf('GET', '/transfers/abc'), undefined);
});
