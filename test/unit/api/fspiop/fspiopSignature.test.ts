import test from 'ava';
import { signsThisPath } from '../../../../api/fspiop/fspiopSignature';

// At the first hop a signed message must be the very request it arrives as: its signed FSPIOP-URI names this path, or
// a signature made for one {ID} could be replayed at another's. Mojaloop's signer (sdk-standard-components JwsSigner)
// cuts FSPIOP-URI from the URL it sends to with a pattern of its own, and each of its cuts must still hold.

test('the API path itself, or the whole URL with the host and any base path before it, is this request', (t) => {
  const path = '/transfers/5f6c0b1e-0d5a-4b8e-9b7e-2f1c3a4d5e6f';
  t.true(signsThisPath(path, path));
  t.true(signsThisPath(`//switch:3000${path}`, path));
  t.true(signsThisPath(`/mojaloop/switch${path}`, path));
  t.true(signsThisPath('/parties/MSISDN/4470000001', '/parties/MSISDN/4470000001'));
});

test("a query is never in the signer's cut, so a signed URI's query does not count", (t) => {
  t.true(signsThisPath('/authorizations/a1b2?authenticationType=OTP&retriesLeft=1', '/authorizations/a1b2'));
  t.true(signsThisPath('/participants/MSISDN/4470000001?currency=USD', '/participants/MSISDN/4470000001'));
});

test('a path below a resource the signer knows is signed from that resource on, as the thirdparty-sdk signs its authorizations', (t) => {
  const id = '0c7a5f3d-8b2e-4a61-9d4f-3e2b1a0c9d8e';
  t.true(signsThisPath(`/authorizations/${id}`, `/thirdpartyRequests/authorizations/${id}`));
  t.true(signsThisPath(`/authorizations/${id}/error`, `/thirdpartyRequests/authorizations/${id}/error`));
  t.true(signsThisPath(`/thirdpartyRequests/authorizations/${id}`, `/thirdpartyRequests/authorizations/${id}`), 'or in full');
  t.true(signsThisPath(`/transfers/${id}/error`, `/transfers/${id}/error`));
});

test('another path is not this request: another ID, another resource, another message of the same conversation', (t) => {
  const id = '5f6c0b1e-0d5a-4b8e-9b7e-2f1c3a4d5e6f';
  const other = '9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d';
  t.false(signsThisPath(`/transfers/${other}`, `/transfers/${id}`), 'a signature replayed at another transfer');
  t.false(signsThisPath('/quotes', '/transfers'), 'another resource');
  t.false(signsThisPath(`/transfers/${id}`, `/transfers/${id}/error`), 'the answer is not the error');
  t.false(signsThisPath(`/transfers/${id}/error`, `/transfers/${id}`), 'nor the error the answer');
  t.false(signsThisPath(`/authorizations/${other}`, `/thirdpartyRequests/authorizations/${id}`));
  t.false(
    signsThisPath(`/transactions/${id}`, `/thirdpartyRequests/transactions/${id}`),
    "the signer knows no 'transactions' resource below thirdpartyRequests",
  );
  t.false(signsThisPath('', `/transfers/${id}`), 'an empty FSPIOP-URI');
});
