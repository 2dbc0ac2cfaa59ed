import test from 'ava';
import { errorInformation, fspiopErrors } from '../../../../../activities/shared/contracts/errors';

// Mojaloop's catalogue (central-services-error-handling, sdk-standard-components) names each code thus; DFSPs
// match on these words at the start of errorDescription.
const mojaloopNames: Record<string, string> = {
  '2001': 'Internal server error',
  '3100': 'Generic validation error',
  '3106': 'Modified request',
  '3208': 'Transfer ID not found',
  '3303': 'Transfer expired',
  '4000': 'Generic Payer error',
  '4001': 'Payer FSP insufficient liquidity',
  '4100': 'Generic Payer rejection',
  '4200': 'Payer limit error',
  '5000': 'Generic Payee error',
  '5100': 'Generic Payee rejection',
  '5104': 'Payee rejected transaction',
};

test('errorDescription starts with Mojaloop\'s name for the code, followed by " - " and the detail', (t) => {
  for (const [name, { code }] of Object.entries(fspiopErrors)) {
    const expected = mojaloopNames[code];
    if (!expected) continue;
    const described = errorInformation(name as keyof typeof fspiopErrors, 'the detail');
    t.is(described.errorCode, code);
    t.is(described.errorDescription, `${expected} - the detail`, code);
  }
  t.is(errorInformation('payerLimitError').errorDescription, 'Payer limit error', 'no detail, no separator');
  const covered = new Set<string>(Object.values(fspiopErrors).map(({ code }) => code));
  t.deepEqual(
    Object.keys(mojaloopNames).filter((code) => !covered.has(code)),
    [],
    'every code above is in the catalogue',
  );
});

test('errorDescription never exceeds the 128 characters the FSPIOP schema allows', (t) => {
  const described = errorInformation('validationError', 'x'.repeat(500));
  t.is(described.errorDescription.length, 128);
  t.true(described.errorDescription.startsWith('Generic validation error - xxx'));
});
