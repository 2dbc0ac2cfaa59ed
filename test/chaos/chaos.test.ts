import test from 'ava';
import { runChaos } from './chaos';

// The short version of `npm run chaos`: 30 s of load, each fault once.
test('killing the worker, then a gateway, then the Temporal server under load loses no transfer and applies none twice: every transfer ends COMMITTED or ABORTED, positions equal the committed sums and their journals, the payer hears every outcome', async (t) => {
  t.timeout(600_000);
  const { ok, report } = await runChaos({ durationS: 30, concurrency: 3 });
  t.log(report.join('\n'));
  t.true(ok, 'a check failed: see the report above');
});
