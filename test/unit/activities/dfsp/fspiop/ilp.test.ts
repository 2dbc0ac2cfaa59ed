import crypto from 'node:crypto';
import test from 'ava';
import fc from 'fast-check';
import { deserializeIlpPrepare, serializeIlpFulfill } from 'ilp-packet';
import {
  conditionOf,
  fulfilmentOf,
  IlpAmountError,
  ilpFor,
  transactionIn,
  transactionObjectOf,
  type TransactionObject,
} from '../../../../../activities/dfsp/fspiop/ilp';
import type { QuotesPostRequest } from '../../../../../activities/shared/contracts/bodies';
import { parseExpiration } from '../../../../../activities/shared/contracts/expiry';

// Document 2, transfer rule 6: the payee's quote carries an ILP packet and a condition; the transfer commits only with
// the fulfilment whose SHA-256 is that condition, both written base64url. A payee keeps nothing between quote and
// transfer: it derives the fulfilment again from the packet the transfer brings back.

const transaction = (amount = '10.5', currency = 'USD'): TransactionObject => ({
  quoteId: '20508186-1458-4ac0-a824-d4b07e37d7b3',
  transactionId: '3f4b9d6e-1c2a-4e8b-9f0d-5a6b7c8d9e0f',
  transactionType: { scenario: 'TRANSFER', initiator: 'PAYER', initiatorType: 'CONSUMER' },
  payee: { partyIdInfo: { partyIdType: 'MSISDN', partyIdentifier: '4470000001', fspId: 'payeefsp' } },
  payer: { partyIdInfo: { partyIdType: 'MSISDN', partyIdentifier: '4470000002', fspId: 'payerfsp' } },
  expiration: '2030-01-01T00:00:00.000Z',
  amount: { amount, currency } as TransactionObject['amount'],
});

const sha256 = (text: string) => crypto.createHash('sha256').update(Buffer.from(text, 'base64url')).digest('base64url');

test("a fulfilment's condition is the base64url SHA-256 of its 32 bytes: 43 characters, no padding", (t) => {
  t.notThrows(() =>
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 32, maxLength: 32 }), (bytes) => {
        const fulfilment = Buffer.from(bytes).toString('base64url');
        const condition = conditionOf(fulfilment);
        if (condition !== crypto.createHash('sha256').update(bytes).digest('base64url')) throw new Error(`${condition} is not SHA-256 of ${fulfilment}`);
        if (!/^[A-Za-z0-9_-]{43}$/.test(condition)) throw new Error(`${condition} is not 43 base64url characters`);
      }),
    ),
  );
});

test('the packet, condition and fulfilment of a transaction belong together: the condition is the fulfilment’s, the packet names it', (t) => {
  const { ilpPacket, condition, fulfilment } = ilpFor(transaction(), 'secret');
  t.is(sha256(fulfilment), condition);
  const prepare = deserializeIlpPrepare(Buffer.from(ilpPacket, 'base64url'));
  t.is(prepare.executionCondition.toString('base64url'), condition);
  t.is(prepare.destination, 'g.mojaloop', 'Mojaloop routes by party, not ILP address');
  t.is(prepare.expiresAt.toISOString(), '2030-01-01T00:00:00.000Z', 'the quote’s expiration');
});

test('the payee derives the same fulfilment from the packet a transfer brings back, with its secret and no other', (t) => {
  t.notThrows(() =>
    fc.assert(
      fc.property(fc.string({ minLength: 1 }), fc.string({ minLength: 1 }), fc.string(), (secret, otherSecret, note) => {
        const quoted = { ...transaction(), ...(note ? { note } : {}) };
        const { ilpPacket, fulfilment } = ilpFor(quoted, secret);
        const carried = transactionIn(ilpPacket);
        if (!carried) throw new Error('the packet carries no transaction');
        if (fulfilmentOf(carried, secret) !== fulfilment) throw new Error('the packet does not give back the fulfilment');
        if (otherSecret !== secret && fulfilmentOf(carried, otherSecret) === fulfilment) throw new Error('another secret gives the same fulfilment');
      }),
    ),
  );
});

test("the fulfilment hangs on the transaction's content, not on the order its keys were written in", (t) => {
  const quoted = transaction();
  const reversed = Object.fromEntries(Object.entries(quoted).reverse()) as unknown as TransactionObject;
  t.is(fulfilmentOf(reversed, 'secret'), fulfilmentOf(quoted, 'secret'));
  t.not(fulfilmentOf(transaction('10.6'), 'secret'), fulfilmentOf(quoted, 'secret'), 'another amount');
  t.not(fulfilmentOf({ ...quoted, payee: transaction().payer }, 'secret'), fulfilmentOf(quoted, 'secret'), 'another payee');
});

test("the packet's amount is in the currency's minor units (ISO 4217); an amount finer than they go is refused", (t) => {
  const amountOf = (amount: string, currency: string) =>
    deserializeIlpPrepare(Buffer.from(ilpFor(transaction(amount, currency), 's').ilpPacket, 'base64url')).amount;
  t.is(amountOf('10.5', 'USD'), '1050');
  t.is(amountOf('100', 'JPY'), '100');
  t.is(amountOf('1.234', 'KWD'), '1234');
  t.is(amountOf('123456789012345678.12', 'USD'), '12345678901234567812', 'beyond what a double holds, exactly');
  t.throws(() => ilpFor(transaction('1.234', 'USD'), 's'), { instanceOf: IlpAmountError });
  t.throws(() => ilpFor(transaction('0.5', 'JPY'), 's'), { instanceOf: IlpAmountError });
});

test('a quote without a valid expiration has no packet', (t) => {
  t.throws(() => ilpFor({ ...transaction(), expiration: undefined }, 's'), { instanceOf: IlpAmountError, message: /expiration/ });
  t.throws(() => ilpFor({ ...transaction(), expiration: 'soon' }, 's'), { instanceOf: IlpAmountError });
  // Text Date.parse would read (as 1 March, as 2001) is no expiration either: the packet must not expire at a guess.
  for (const expiration of ['2024-02-30T00:00:00.000Z', '1'])
    t.throws(() => ilpFor({ ...transaction(), expiration }, 's'), { instanceOf: IlpAmountError }, expiration);
});

test('what is not an ILP Prepare carrying a transaction gives none', (t) => {
  const fulfill = serializeIlpFulfill({ fulfillment: crypto.randomBytes(32), data: Buffer.alloc(0) }).toString('base64url');
  for (const packet of ['', 'AAAA', 'not base64!', Buffer.from('ilp packet for 1').toString('base64url'), fulfill]) {
    t.is(transactionIn(packet), undefined, packet);
  }
});

/**
 * The sdk-standard-components IlpV4 test data (test/unit/data/quoteRequest.json and partialResponse.json, secret
 * 'test'), and what IlpV4.getResponseIlp makes of it: computed by running its IlpBase.js and IlpV4.js (release 19.19.0).
 */
const SDK_QUOTE_REQUEST = {
  quoteId: '20508186-1458-4ac0-a824-d4b07e37d7b3',
  transactionId: '20508186-1458-4ac0-a824-d4b07e37d7b3',
  payee: { partyIdInfo: { partyIdType: 'MSISDN', partyIdentifier: '123456789', fspId: 'MobileMoney' } },
  payer: {
    personalInfo: { complexName: { firstName: 'Mats', lastName: 'Hagman' } },
    partyIdInfo: { partyIdType: 'MSISDN', partyIdentifier: '9876543', fspId: 'BankNrOne' },
  },
  amountType: 'RECEIVE',
  amount: { amount: '100', currency: 'USD' },
  transactionType: { scenario: 'TRANSFER', initiator: 'PAYER', initiatorType: 'CONSUMER', balanceOfPayments: '110' },
  geoCode: { latitude: '52.295971', longitude: '-0.038400' },
  note: 'From Mats',
  expiration: '2017-11-15T22:17:28.985-01:00',
} as unknown as QuotesPostRequest;
const SDK_PARTIAL_RESPONSE = { transferAmount: { amount: '500', currency: 'USD' as const }, expiration: parseExpiration('2017-11-15T14:17:09.663+01:00')! };
const SDK_ILP = {
  fulfilment: '8vISubltYoc3dpfWq61zYGfI8uuFMtqTIUgUi-Hrtv0',
  condition: '0CTTMO9tu-8PVJy1IJoFnUmJ743FYEWX7RKuHVdGkro',
  ilpPacket:
    'DIIDSgAAAAAAAMNQMjAxNzExMTUxMzE3MDk2NjPQJNMw72277w9UnLUgmgWdSYnvjcVgRZftEq4dV0aSugpnLm1vamFsb29wggMDZXlKaGJXOTFiblFpT25zaVlXMXZkVzUwSWpvaU5UQXdJaXdpWTNWeWNtVnVZM2tpT2lKVlUwUWlmU3dpWlhod2FYSmhkR2x2YmlJNklqSXdNVGN0TVRFdE1UVlVNVFE2TVRjNk1Ea3VOall6S3pBeE9qQXdJaXdpY0dGNVpXVWlPbnNpY0dGeWRIbEpaRWx1Wm04aU9uc2labk53U1dRaU9pSk5iMkpwYkdWTmIyNWxlU0lzSW5CaGNuUjVTV1JVZVhCbElqb2lUVk5KVTBST0lpd2ljR0Z5ZEhsSlpHVnVkR2xtYVdWeUlqb2lNVEl6TkRVMk56ZzVJbjE5TENKd1lYbGxjaUk2ZXlKd1lYSjBlVWxrU1c1bWJ5STZleUptYzNCSlpDSTZJa0poYm10T2NrOXVaU0lzSW5CaGNuUjVTV1JVZVhCbElqb2lUVk5KVTBST0lpd2ljR0Z5ZEhsSlpHVnVkR2xtYVdWeUlqb2lPVGczTmpVME15SjlMQ0p3WlhKemIyNWhiRWx1Wm04aU9uc2lZMjl0Y0d4bGVFNWhiV1VpT25zaVptbHljM1JPWVcxbElqb2lUV0YwY3lJc0lteGhjM1JPWVcxbElqb2lTR0ZuYldGdUluMTlmU3dpY1hWdmRHVkpaQ0k2SWpJd05UQTRNVGcyTFRFME5UZ3ROR0ZqTUMxaE9ESTBMV1EwWWpBM1pUTTNaRGRpTXlJc0luUnlZVzV6WVdOMGFXOXVTV1FpT2lJeU1EVXdPREU0TmkweE5EVTRMVFJoWXpBdFlUZ3lOQzFrTkdJd04yVXpOMlEzWWpNaUxDSjBjbUZ1YzJGamRHbHZibFI1Y0dVaU9uc2lZbUZzWVc1alpVOW1VR0Y1YldWdWRITWlPaUl4TVRBaUxDSnBibWwwYVdGMGIzSWlPaUpRUVZsRlVpSXNJbWx1YVhScFlYUnZjbFI1Y0dVaU9pSkRUMDVUVlUxRlVpSXNJbk5qWlc1aGNtbHZJam9pVkZKQlRsTkdSVklpZlgw',
};

test("the packet, condition and fulfilment are the sdk-scheme-adapter's (IlpV4) for the same transaction and secret", (t) => {
  const quoted = transactionObjectOf(SDK_QUOTE_REQUEST, SDK_PARTIAL_RESPONSE);
  t.deepEqual(ilpFor(quoted, 'test'), SDK_ILP);
  // A transfer on the SDK's quote brings back the SDK's packet: it gives back the fulfilment, whatever the key order it was parsed in.
  t.is(fulfilmentOf(transactionIn(SDK_ILP.ilpPacket)!, 'test'), SDK_ILP.fulfilment);
});

test("the transaction in the packet is the quote's terms: the request's parties and type, the answer's amount and expiration, a note if any", (t) => {
  const quoted = transactionObjectOf(SDK_QUOTE_REQUEST, SDK_PARTIAL_RESPONSE);
  t.deepEqual(quoted.amount, SDK_PARTIAL_RESPONSE.transferAmount);
  t.is(quoted.expiration, SDK_PARTIAL_RESPONSE.expiration);
  t.deepEqual(quoted.payee, SDK_QUOTE_REQUEST.payee);
  t.false('note' in quoted, "the request's note is not the answer's");
  t.is(transactionObjectOf(SDK_QUOTE_REQUEST, { ...SDK_PARTIAL_RESPONSE, note: 'thanks' }).note, 'thanks');
});
