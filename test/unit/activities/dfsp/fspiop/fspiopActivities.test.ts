import test from 'ava';
import pino from 'pino';
import type { BackendQuoteResponse } from '../../../../../activities/dfsp/backend/coreBanking';
import type { DfspDependencies } from '../../../../../activities/dfsp/dependencies';
import { createFspiopActivities } from '../../../../../activities/dfsp/fspiop/fspiopActivities';
import { lapsed } from '../../../../../activities/shared/contracts/expiry';
import { quoteBody } from '../../../../helpers/fspiopBodies';

// The payee DFSP's bank names the quote's expiration (sdk-scheme-adapter backend API, POST /quoterequests): the
// connector reads it as the switch's gateway reads a DFSP's, before the quote and its ILP packet carry it on.

/** The connector's payee activities over a bank that answers every quote request for 10 USD, with `expiration` if given. */
function payeeOfBankQuoting(expiration?: string) {
  const coreBanking = {
    quoteRequest: async (request: { quoteId: string; transactionId: string }): Promise<BackendQuoteResponse> => ({
      quoteId: request.quoteId,
      transactionId: request.transactionId,
      transferAmount: '10',
      transferAmountCurrency: 'USD',
      ...(expiration === undefined ? {} : { expiration }),
    }),
  };
  const dependencies = { config: { ilpSecret: 'payee secret' }, backends: { coreBanking }, log: pino({ level: 'silent' }) };
  return createFspiopActivities(dependencies as unknown as DfspDependencies);
}

test("the bank's expiration is the quote's, as the bank wrote it, zone and all", async (t) => {
  const quoted = await payeeOfBankQuoting('2030-01-01T01:00:00.000+01:00').quoteAsPayee(quoteBody('payerfsp', 'payeefsp', '10'));
  t.true(quoted.ok);
  if (quoted.ok) t.is<string, string>(quoted.body.expiration, '2030-01-01T01:00:00.000+01:00');
});

test('a quote the bank names no expiration for stands a while (the SDK default), from now', async (t) => {
  const quoted = await payeeOfBankQuoting().quoteAsPayee(quoteBody('payerfsp', 'payeefsp', '10'));
  t.true(quoted.ok);
  if (quoted.ok) t.false(lapsed(quoted.body.expiration, Date.now()));
});

test("a bank's expiration that names no real instant is refused 3100 to the payer FSP, never passed on in a quote", async (t) => {
  for (const expiration of ['2030-02-30T00:00:00.000Z', '2030-01-01T00:00:00.000', 'soon']) {
    const quoted = await payeeOfBankQuoting(expiration).quoteAsPayee(quoteBody('payerfsp', 'payeefsp', '10'));
    t.false(quoted.ok, expiration);
    if (!quoted.ok) t.is(quoted.errorInformation.errorCode, '3100', expiration);
  }
});
