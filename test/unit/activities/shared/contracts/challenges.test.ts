import type { thirdparty } from '@mojaloop/api-snippets';
import crypto from 'node:crypto';
import test from 'ava';
import fc from 'fast-check';
import { challengeBytes, consentChallenge, webAuthnChallenge } from '../../../../../activities/shared/contracts/challenges';
import { yubikeyConsent, yubikeyConsentChallenge } from '../../../../helpers/mojaloopVectors';

// Document 1, "Challenge derivation": the credential registration challenge is the SHA-256 of the canonical JSON
// (RFC 8785) of {consentId, scopes} from the POST /consents body. The PISP, the DFSP and the Auth service each derive
// it, so all three must get the same text, byte for byte, as Mojaloop's do.

type Scope = thirdparty.Schemas.Scope;
const consent = {
  consentId: '3b1f3f6e-2c57-4a4e-9f0b-8f3a3f7d1c2e',
  scopes: [{ address: 'dfspa.username.5678', actions: ['ACCOUNTS_GET_BALANCE', 'ACCOUNTS_TRANSFER'] }] as Scope[],
};

test('the challenge is the lowercase hex SHA-256 of {consentId, scopes} in canonical JSON: keys sorted, no whitespace', (t) => {
  const canonical =
    '{"consentId":"3b1f3f6e-2c57-4a4e-9f0b-8f3a3f7d1c2e","scopes":[{"actions":["ACCOUNTS_GET_BALANCE","ACCOUNTS_TRANSFER"],"address":"dfspa.username.5678"}]}';
  t.is(consentChallenge(consent), crypto.createHash('sha256').update(canonical).digest('hex'));
  t.regex(consentChallenge(consent), /^[0-9a-f]{64}$/);
});

test('the registration challenge is the one Mojaloop derives', (t) => {
  // mojaloop/auth-service test/unit/domain/challenge.test.ts ("parses the same hash", "… for a different consent")
  // expects deriveChallenge to give base64 of the hex digest; the hex is what gets signed.
  const expected = (base64: string) => Buffer.from(base64, 'base64').toString('utf8');
  t.is(
    consentChallenge({
      consentId: '11a91835-cdda-418b-9c0a-e8de62fbc84c',
      scopes: [
        { address: 'a84cd5b8-5883-4deb-9dec-2e86a9603922', actions: ['ACCOUNTS_GET_BALANCE', 'ACCOUNTS_TRANSFER'] },
        { address: 'b7b40dd7-ae6b-4904-9654-82d02544b327', actions: ['ACCOUNTS_GET_BALANCE'] },
      ],
    }),
    expected('YzhmYzM5NDFkNjA3MGQzYmMzZmIzYTk5ZjgyZWVkMWUwNjdhOWQ2ZDU2YzcxYzI0ODUxZWM4YTc2NDljN2RhMA=='),
  );
  const withRequestId = {
    consentId: '46876aac-5db8-4353-bb3c-a6a905843ce7',
    consentRequestId: 'c51ec534-ee48-4575-b6a9-ead2955b8069',
    scopes: [{ address: 'dfspa.username.5678', actions: ['ACCOUNTS_TRANSFER'] }] as Scope[],
  };
  t.is(consentChallenge(withRequestId), expected('ODNkN2RkMzlkMTA5NGFmZDUzNWU1N2I5ODk5ZmNlM2JlODJlMGFkNDk3M2I1MmE1MzcxZmQ3ZGYzZmEyNjY5MQ=='));
  // auth-service's test/integration/server/workflows/verifyTransaction.test.ts, for the consent its YubiKey signed.
  t.is(consentChallenge(yubikeyConsent), yubikeyConsentChallenge);
});

test('a scope hashes by its address and actions only, as auth-service hashes it', (t) => {
  const extended = { ...consent, scopes: consent.scopes.map((scope) => ({ ...scope, note: 'not in the schema' })) };
  t.is(consentChallenge(extended), consentChallenge(consent));
});

const action = fc.constantFrom<Scope['actions'][number]>('ACCOUNTS_GET_BALANCE', 'ACCOUNTS_TRANSFER', 'ACCOUNTS_STATEMENT');
const scope = fc.record({ address: fc.string({ minLength: 1 }), actions: fc.uniqueArray(action, { minLength: 1 }) });
const consents = fc.record({ consentId: fc.uuid(), scopes: fc.array(scope, { minLength: 1, maxLength: 4 }) });

test('the order in which a body writes its keys does not change the challenge; its contents do', (t) => {
  t.notThrows(() =>
    fc.assert(
      fc.property(consents, ({ consentId, scopes }) => {
        const challenge = consentChallenge({ consentId, scopes });
        const reordered = { scopes: scopes.map(({ address, actions }) => ({ actions, address })), consentId };
        if (consentChallenge(reordered) !== challenge) throw new Error('key order changed the challenge');
        if (consentChallenge({ consentId: crypto.randomUUID(), scopes }) === challenge) throw new Error('another consent, the same challenge');
        const widened = [...scopes, { address: 'another.account', actions: ['ACCOUNTS_TRANSFER'] as Scope['actions'] }];
        if (consentChallenge({ consentId, scopes: widened }) === challenge) throw new Error('another scope, the same challenge');
      }),
    ),
  );
});

test('a challenge is signed as its UTF-8 bytes, and a FIDO client carries it as their unpadded base64url', (t) => {
  // auth-service's real authenticator output: clientDataJSON.challenge "dW5pbXBsZW1lbnRlZDEyMw" for "unimplemented123".
  t.is(webAuthnChallenge('unimplemented123'), 'dW5pbXBsZW1lbnRlZDEyMw');
  t.deepEqual([...challengeBytes('é€')], [0xc3, 0xa9, 0xe2, 0x82, 0xac]);
  const hex = consentChallenge(consent);
  t.is(challengeBytes(hex).toString('ascii'), hex, 'the hex text, not the digest it spells');
  t.is(Buffer.from(webAuthnChallenge(hex), 'base64url').toString('utf8'), hex);
  t.false(webAuthnChallenge(hex).includes('='));
});
