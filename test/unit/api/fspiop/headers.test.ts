import test from 'ava';
import type { Context } from 'koa';
import type { Resource } from '../../../../activities/shared/contracts/conversations';
import { errorMediaType, fspiopHeaders, type FspiopRequest, type Senders, type UnknownSourceAnswer } from '../../../../api/fspiop/headers';
import { NOT_A_PARTICIPANT } from '../../../../activities/hub/delivery/directory';
import { HttpError } from '../../../../activities/shared/platform/httpError';

// Document 2, "Versioning": the headers every message carries, checked before any router reads it, with the codes
// and words of Mojaloop's header validation (central-services-shared), which its tooling matches on.

const DATE = 'Tue, 02 Jun 2026 10:00:00 GMT';
const media = (resource: string, version?: string) => `application/vnd.interoperability.${resource}+json${version ? `;version=${version}` : ''}`;

/** The headers of a well-formed request for `resource`, as a DFSP sends them. */
const requestHeaders = (resource = 'transfers'): Record<string, string | undefined> => ({
  accept: media(resource, '1'),
  'content-type': media(resource, '1.1'),
  date: DATE,
  'fspiop-source': 'payerfsp',
  'fspiop-destination': 'payeefsp',
});

/** A callback's: no Accept. */
const callbackHeaders = (resource = 'transfers'): Record<string, string | undefined> => ({ ...requestHeaders(resource), accept: undefined });

/** Only the header values a Koa context's `get` reads, case-insensitively, '' for a header not sent. */
function contextOf(method: string, headers: Record<string, string | undefined>): Context {
  const sent = new Map(Object.entries(headers).flatMap(([name, value]) => (value === undefined ? [] : [[name.toLowerCase(), value]])));
  return { method, state: {}, get: (name: string) => sent.get(name.toLowerCase()) ?? '' } as unknown as Context;
}

/** The versions each sender was heard writing in, as the directory is told them. */
const heard: Array<[string, string]> = [];

const senders: Senders = {
  unavailable: async (fspId) => {
    if (fspId === 'strangerfsp') return NOT_A_PARTICIPANT;
    return fspId === 'dormantfsp' ? 'participant dormantfsp is inactive' : undefined;
  },
  ownIdentities: ['hub', 'centralauth'],
  heard: async (fspId, version) => {
    heard.push([fspId, version]);
  },
};

/** What the header check makes of a message: the request it records, or the error it answers. */
async function checked(
  method: string,
  headers: Record<string, string | undefined>,
  resource: Resource = 'transfers',
  unknownSource?: UnknownSourceAnswer,
): Promise<{ request?: FspiopRequest; refused?: HttpError }> {
  const ctx = contextOf(method, headers);
  let passedOn = false;
  try {
    await fspiopHeaders(
      resource,
      senders,
      unknownSource,
    )(ctx, async () => {
      passedOn = true;
    });
  } catch (error) {
    if (error instanceof HttpError) return { refused: error };
    throw error;
  }
  if (!passedOn) throw new Error('the check neither refused the message nor passed it on');
  return { request: ctx.state.fspiop };
}

/** The status and error code a refused message is answered with. */
async function refusal(method: string, headers: Record<string, string | undefined>, resource?: Resource): Promise<string | undefined> {
  const { refused } = await checked(method, headers, resource);
  return refused && `${refused.status} ${refused.errorInformation.errorCode}`;
}

test('a well-formed request passes, recording its sender, its destination and the version its callbacks use', async (t) => {
  const { request } = await checked('POST', requestHeaders());
  t.like(request, { resource: 'transfers', source: 'payerfsp', destination: 'payeefsp', version: '1.1' });
  const { request: lookup } = await checked('GET', { ...requestHeaders('parties'), 'fspiop-destination': undefined }, 'parties');
  t.is(lookup?.destination, undefined, 'a GET /parties names no destination: the switch finds it');
});

test("Accept, Content-Type, Date and FSPIOP-Source are mandatory in a request: each missing is 400 with 3102, in the words of Mojaloop's header validation", async (t) => {
  const words: Record<string, string> = {
    accept: 'Accept is required',
    'content-type': 'Content-type is required',
    date: 'Missing required date header',
    'fspiop-source': "/header must have required property 'fspiop-source'",
  };
  for (const [header, description] of Object.entries(words)) {
    const { refused } = await checked('POST', { ...requestHeaders(), [header]: undefined });
    t.is(refused?.status, 400, header);
    t.deepEqual(refused?.errorInformation, { errorCode: '3102', errorDescription: `Missing mandatory element - ${description}` });
  }
  t.is(await refusal('GET', { ...requestHeaders(), 'content-type': undefined }), '400 3102', 'a GET carries Content-Type too, as at Mojaloop');
  t.is(await refusal('DELETE', { ...requestHeaders('participants'), accept: undefined }, 'participants'), '400 3102', 'a DELETE is a request');
});

test('a callback (PUT) carries no Accept and needs none; its other headers are mandatory as in a request', async (t) => {
  t.truthy((await checked('PUT', callbackHeaders())).request);
  for (const header of ['content-type', 'date', 'fspiop-source']) t.is(await refusal('PUT', { ...callbackHeaders(), [header]: undefined }), '400 3102', header);
});

test("a media type that is not the resource's FSPIOP type is 400 with 3101, in Accept or Content-Type", async (t) => {
  const invalid = (header: string) => ({ errorCode: '3101', errorDescription: `Malformed syntax - Invalid ${header} header` });
  for (const accept of ['application/json', '*/*', 'text/plain', media('quotes', '1.1')]) {
    t.deepEqual((await checked('POST', { ...requestHeaders(), accept })).refused?.errorInformation, invalid('accept'), accept);
  }
  for (const contentType of ['application/json', 'text/plain', media('quotes', '1.1'), media('thirdparty', '1.0')]) {
    t.deepEqual((await checked('POST', { ...requestHeaders(), 'content-type': contentType })).refused?.errorInformation, invalid('content-type'), contentType);
  }
});

test('a body in a media type that is not JSON or text at all is 400 with 3101 Unsupported Media Type, as Mojaloop refuses what it cannot read', async (t) => {
  const unsupported = { errorCode: '3101', errorDescription: 'Malformed syntax - Unsupported Media Type' };
  for (const contentType of ['application/xml', 'image/png', 'application/vnd.interoperability.transfers+xml;version=1.1']) {
    t.deepEqual((await checked('POST', { ...requestHeaders(), 'content-type': contentType })).refused?.errorInformation, unsupported, `POST ${contentType}`);
    t.deepEqual((await checked('PUT', { ...callbackHeaders(), 'content-type': contentType })).refused?.errorInformation, unsupported, `PUT ${contentType}`);
  }
  t.is(
    await refusal('GET', { ...requestHeaders(), 'content-type': 'application/xml' }),
    '400 3101',
    'a GET has no body to read: its Content-Type is merely invalid',
  );
});

test('Content-Type must say its version as x.y: without one, or with a major version only, it is 3101 in every kind of message', async (t) => {
  for (const contentType of [media('transfers'), media('transfers', '1')]) {
    t.is(await refusal('POST', { ...requestHeaders(), 'content-type': contentType }), '400 3101', `POST ${contentType}`);
    t.is(await refusal('GET', { ...requestHeaders(), 'content-type': contentType }), '400 3101', `GET ${contentType}`);
    t.is(await refusal('PUT', { ...callbackHeaders(), 'content-type': contentType }), '400 3101', `PUT ${contentType}`);
  }
  t.truthy((await checked('POST', { ...requestHeaders(), 'content-type': `${media('transfers')} ; version = 1.0 ` })).request, 'spaces around it are allowed');
});

test('versions 1.0, 1.1 and 2.0 are spoken; a request is answered in the version Accept asks for, the latest minor of a major version, or the version it was written in', async (t) => {
  const versionFor = async (accept: string, contentType = media('transfers', '1.1')) =>
    (await checked('POST', { ...requestHeaders(), accept, 'content-type': contentType })).request?.version;
  t.is(await versionFor(media('transfers', '1.0')), '1.0', 'though its Content-Type is 1.1');
  t.is(await versionFor(media('transfers', '1.1')), '1.1');
  t.is(await versionFor(media('transfers', '1')), '1.1', 'the latest 1.x, not the latest of all');
  t.is(await versionFor(media('transfers', '2')), '2.0');
  t.is(await versionFor(media('transfers', '2.0'), media('transfers', '2.0')), '2.0');
  t.is(await versionFor(media('transfers')), '1.1', 'an Accept without a version: the version its sender wrote in');
  t.is(await versionFor(media('transfers'), media('transfers', '2.0')), '2.0');
  t.is(await versionFor(`${media('transfers', '3.0')}, ${media('transfers', '1.0')}`), '1.0', 'the first of several the switch speaks');
});

test("a callback is answered in its own Content-Type's version, and its body held to that version's document", async (t) => {
  for (const version of ['1.0', '1.1', '2.0']) {
    const { request } = await checked('PUT', { ...callbackHeaders(), 'content-type': media('transfers', version) });
    t.like(request, { version, contentVersion: version });
  }
  const { request } = await checked('POST', { ...requestHeaders(), accept: media('transfers', '1'), 'content-type': media('transfers', '2.0') });
  t.like(request, { version: '1.1', contentVersion: '2.0' }, 'a request written in 2.0 may ask for its answers in 1.1');
});

test('a version the switch does not speak is 406 with 3001, listing the versions it does as major/minor extensions', async (t) => {
  const supported = {
    extensionList: {
      extension: [
        { key: '1', value: '0' },
        { key: '1', value: '1' },
        { key: '2', value: '0' },
      ],
    },
  };
  for (const accept of [media('transfers', '2.1'), media('transfers', '1.2'), media('transfers', '3')]) {
    const { refused } = await checked('POST', { ...requestHeaders(), accept });
    t.is(refused?.status, 406, accept);
    t.deepEqual(refused?.errorInformation, {
      errorCode: '3001',
      errorDescription: 'Unacceptable version requested - The Client requested an unsupported version, see extension list for supported version(s).',
      ...supported,
    });
  }
  for (const [method, headers] of [
    ['POST', requestHeaders()],
    ['PUT', callbackHeaders()],
  ] as const) {
    const { refused } = await checked(method, { ...headers, 'content-type': media('transfers', '3.0') });
    t.is(refused?.status, 406, method);
    t.deepEqual(refused?.errorInformation, {
      errorCode: '3001',
      errorDescription: 'Unacceptable version requested - Client supplied a protocol version which is not supported by the server',
      ...supported,
    });
  }
});

test('Date must be an HTTP-date in one of the three forms RFC 7231 has a recipient accept; anything else is 3101', async (t) => {
  for (const date of [DATE, 'Tuesday, 02-Jun-26 10:00:00 GMT', 'Tue Jun  2 10:00:00 2026']) {
    t.truthy((await checked('POST', { ...requestHeaders(), date })).request, date);
  }
  for (const date of [
    '12345',
    '2026-06-02T10:00:00Z',
    'Tue, 02 Jun 2026 10:00:00',
    'Tue, 02 Jun 2026 10:00:00 UTC',
    'yesterday-ish',
    'Tue, 02 Jun 2026 25:00:00 GMT',
  ]) {
    t.deepEqual(
      (await checked('POST', { ...requestHeaders(), date })).refused?.errorInformation,
      { errorCode: '3101', errorDescription: 'Malformed syntax - Invalid date header' },
      date,
    );
  }
});

test("a sender claiming one of the hub's own identities is spoofed (400, 3100); one that cannot take part now is 400 with 3200 and the reason", async (t) => {
  for (const source of senders.ownIdentities) t.is(await refusal('POST', { ...requestHeaders(), 'fspiop-source': source }), '400 3100', source);
  const { refused } = await checked('POST', { ...requestHeaders(), 'fspiop-source': 'dormantfsp' });
  t.deepEqual(refused?.errorInformation, {
    errorCode: '3200',
    errorDescription: 'Generic ID not found - FSPIOP-Source dormantfsp: participant dormantfsp is inactive',
  });
});

test('a sender that is no participant is 3200, unless its resource answers it as its Mojaloop service does: a refusal of its own, or passed on marked', async (t) => {
  const stranger = { ...requestHeaders(), 'fspiop-source': 'strangerfsp' };
  t.deepEqual((await checked('POST', stranger)).refused?.errorInformation, {
    errorCode: '3200',
    errorDescription: 'Generic ID not found - FSPIOP-Source strangerfsp: not a known participant',
  });
  const malformed = new HttpError(400, 'malformedSyntax', 'invalid fspiop-source header');
  t.is((await checked('GET', stranger, 'transfers', () => malformed)).refused, malformed);
  t.like((await checked('POST', stranger, 'transfers', () => 'pass')).request, { source: 'strangerfsp', unknownSource: true });
  t.is(await refusal('POST', { ...requestHeaders(), 'fspiop-source': 'dormantfsp' }, 'transfers'), '400 3200', 'an inactive one is not a stranger');
  t.is((await checked('POST', { ...requestHeaders(), 'fspiop-source': 'dormantfsp' }, 'transfers', () => 'pass')).refused?.status, 400);
});

test("the version a participant writes in is noted, FSPIOP only; a stranger's and a refused message's are not", async (t) => {
  await checked('POST', { ...requestHeaders(), 'fspiop-source': 'twofsp', accept: media('transfers', '2'), 'content-type': media('transfers', '2.0') });
  await checked('PUT', { ...callbackHeaders(), 'fspiop-source': 'onefsp' });
  await checked('POST', { ...requestHeaders(), 'fspiop-source': 'strangerfsp' }, 'transfers', () => 'pass');
  await checked('POST', { ...requestHeaders(), 'fspiop-source': 'badfsp', date: 'yesterday' });
  const thirdparty = media('thirdparty', '1.0');
  await checked('POST', { ...requestHeaders(), 'fspiop-source': 'pispfsp', accept: thirdparty, 'content-type': thirdparty }, 'consents');
  const watched = ['twofsp', 'onefsp', 'strangerfsp', 'badfsp', 'pispfsp'];
  t.deepEqual(
    heard.filter(([fspId]) => watched.includes(fspId)),
    [
      ['twofsp', '2.0'],
      ['onefsp', '1.1'],
    ],
  );
});

test('the headers passed on are those a signature and a trace need, untouched; others stay behind', async (t) => {
  const sent: Record<string, string | undefined> = {
    ...requestHeaders(),
    'fspiop-signature': '{"signature":"s","protectedHeader":"p"}',
    'fspiop-uri': '/transfers',
    'fspiop-http-method': 'POST',
    traceparent: '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01',
    'X-Forwarded-For': '203.0.113.7, 198.51.100.1',
    authorization: 'Bearer secret',
    'x-custom': 'kept here',
  };
  const { request } = await checked('POST', sent);
  t.deepEqual(request?.headers, {
    accept: sent.accept,
    'content-type': sent['content-type'],
    date: DATE,
    'fspiop-source': 'payerfsp',
    'fspiop-destination': 'payeefsp',
    'fspiop-signature': sent['fspiop-signature'],
    'fspiop-uri': '/transfers',
    'fspiop-http-method': 'POST',
    traceparent: sent.traceparent,
    'x-forwarded-for': '203.0.113.7, 198.51.100.1',
  });
});

test('a third-party message carries the thirdparty media type in version 1.0; its own resource name is taken too, FSPIOP versions are not', async (t) => {
  const thirdparty = (contentType: string, accept = media('thirdparty', '1.0')) => ({ ...requestHeaders(), accept, 'content-type': contentType });
  t.is((await checked('POST', thirdparty(media('thirdparty', '1.0')), 'consents')).request?.version, '1.0');
  t.truthy((await checked('POST', thirdparty(media('consents', '1.0'), media('consents', '1')), 'consents')).request);
  t.truthy((await checked('POST', thirdparty(media('thirdpartyRequests', '1.0')), 'thirdpartyRequests/transactions')).request);
  t.is(await refusal('POST', thirdparty(media('thirdparty', '1.1')), 'consents'), '406 3001');
  t.is(await refusal('POST', thirdparty(media('transfers', '1.1')), 'consents'), '400 3101');
});

test('a third-party PATCH is a request awaiting an answer and must carry Accept; an FSPIOP PATCH is a notification and need not', async (t) => {
  const patch = { ...callbackHeaders(), 'content-type': media('thirdparty', '1.0') };
  t.is(await refusal('PATCH', patch, 'consentRequests'), '400 3102');
  t.truthy((await checked('PATCH', { ...patch, accept: media('thirdparty', '1.0') }, 'consentRequests')).request);
  t.truthy((await checked('PATCH', callbackHeaders())).request);
});

test("an error is answered in the resource's media type, in the version of the request, else of its Content-Type, else the latest", (t) => {
  const answered = (resource: Resource, headers: Record<string, string | undefined>, version?: string) => {
    const ctx = contextOf('POST', headers);
    if (version) ctx.state.fspiop = { version };
    return errorMediaType(resource, ctx);
  };
  t.is(answered('transfers', requestHeaders(), '1.0'), media('transfers', '1.0'));
  t.is(answered('transfers', { 'content-type': media('transfers', '1.0') }), media('transfers', '1.0'), 'refused before its version was settled');
  t.is(answered('transfers', { 'content-type': media('transfers', '2.0') }), media('transfers', '2.0'));
  for (const contentType of [media('transfers', '3.0'), media('transfers', '1'), media('quotes', '1.0'), 'application/json', undefined]) {
    t.is(answered('transfers', { 'content-type': contentType }), media('transfers', '2.0'), String(contentType));
  }
  t.is(answered('consents', {}), media('thirdparty', '1.0'));
  t.is(answered('parties', {}), media('parties', '2.0'));
});
