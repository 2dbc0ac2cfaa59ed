import test from 'ava';
import type { Context } from 'koa';
import { decodeSegment, partyOf } from '../../../../api/fspiop/parties';
import { HttpError } from '../../../../activities/shared/platform/httpError';

// Document 2, "Party addressing": a party is /{Type}/{ID}[/{SubId}] in the path of /participants and /parties. The
// values are read from the raw path: an MSISDN may begin with '+', which is a space only in a query string.

/** A request for `path` as the router hands it over: the raw path, and a SubId parameter where the route has one. */
function requestFor(path: string): Context {
  const [, , , , subId] = path.split('/');
  return { path, params: subId === undefined ? {} : { SubId: subId } } as unknown as Context;
}

function refusal(path: string): { status: number; errorCode: string; errorDescription: string } | undefined {
  try {
    partyOf(requestFor(path));
    return undefined;
  } catch (error) {
    if (error instanceof HttpError) return { status: error.status, ...error.errorInformation };
    throw error;
  }
}

test('a path names the party by its type, identifier and sub-id, percent-decoded', (t) => {
  t.deepEqual(partyOf(requestFor('/parties/MSISDN/4470000001')), { partyIdType: 'MSISDN', partyIdentifier: '4470000001', partySubIdOrType: undefined });
  t.deepEqual(partyOf(requestFor('/participants/PERSONAL_ID/1234567/PASSPORT')), {
    partyIdType: 'PERSONAL_ID',
    partyIdentifier: '1234567',
    partySubIdOrType: 'PASSPORT',
  });
  t.is(partyOf(requestFor('/parties/EMAIL/zo%C3%AB%40example.org')).partyIdentifier, 'zoë@example.org');
});

test("an MSISDN in international format keeps its '+', sent as it is or percent-encoded", (t) => {
  t.is(partyOf(requestFor('/parties/MSISDN/+4470000001')).partyIdentifier, '+4470000001');
  t.is(partyOf(requestFor('/participants/MSISDN/%2B4470000001')).partyIdentifier, '+4470000001');
});

test('a / or ? inside an identifier or sub-id is 400 with 3101, even percent-encoded: no path could address such a party', (t) => {
  for (const path of ['/parties/MSISDN/4470000001%2F1', '/parties/MSISDN/4470000001%3F1', '/participants/MSISDN/4470000001%2f1']) {
    t.deepEqual(
      refusal(path),
      { status: 400, errorCode: '3101', errorDescription: 'Malformed syntax - path ID holds a / or ?, which a party identifier may not' },
      path,
    );
  }
  for (const path of ['/parties/PERSONAL_ID/1234567/a%2Fb', '/participants/PERSONAL_ID/1234567/a%3fb']) {
    t.deepEqual(
      refusal(path),
      { status: 400, errorCode: '3101', errorDescription: 'Malformed syntax - path SubId holds a / or ?, which a party identifier may not' },
      path,
    );
  }
});

test('a segment that is not valid percent-encoding is 400 with 3101, never a 500', (t) => {
  t.deepEqual(refusal('/parties/MSISDN/44%E0%A4%A'), {
    status: 400,
    errorCode: '3101',
    errorDescription: 'Malformed syntax - path segment "44%E0%A4%A" is not valid percent-encoding',
  });
  t.is(refusal('/parties/MSISDN/%')?.errorCode, '3101');
  t.is(decodeSegment('a+b%20c'), 'a+b c', "'+' stays itself in a path");
});

test('{Type} must be a PartyIdType; CONSENT and THIRD_PARTY_LINK are the third-party API’s, so /participants only, and without a SubId', (t) => {
  t.regex(refusal('/parties/PHONE/4470000001')?.errorDescription ?? '', /^Generic validation error - path Type must be equal to one of the allowed values/);
  t.is(partyOf(requestFor('/participants/CONSENT/3b1f3f6e-2c57-4a4e-9f0b-8f3a3f7d1c2e')).partyIdType, 'CONSENT');
  t.is(partyOf(requestFor('/participants/THIRD_PARTY_LINK/dfspa.12345')).partyIdType, 'THIRD_PARTY_LINK');
  for (const type of ['CONSENT', 'THIRD_PARTY_LINK']) {
    t.is(refusal(`/parties/${type}/3b1f3f6e-2c57-4a4e-9f0b-8f3a3f7d1c2e`)?.errorCode, '3100', `/parties/${type}`);
    t.deepEqual(refusal(`/participants/${type}/3b1f3f6e-2c57-4a4e-9f0b-8f3a3f7d1c2e/x`), {
      status: 400,
      errorCode: '3101',
      errorDescription: `Malformed syntax - path SubId: a ${type} is addressed as /participants/${type}/{ID}, without a SubId`,
    });
  }
});

test('an identifier or sub-id is held to its schema: 1 to 128 characters', (t) => {
  t.is(partyOf(requestFor(`/parties/MSISDN/${'1'.repeat(128)}`)).partyIdentifier.length, 128);
  t.is(refusal(`/parties/MSISDN/${'1'.repeat(129)}`)?.errorCode, '3100');
  t.is(refusal(`/parties/PERSONAL_ID/1234567/${'x'.repeat(129)}`)?.errorCode, '3100');
});
