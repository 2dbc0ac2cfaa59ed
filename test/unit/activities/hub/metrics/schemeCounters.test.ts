import test from 'ava';
import { completionBucket } from '../../../../../activities/hub/metrics/schemeCounters';

test("a transfer's time falls in the first bucket whose upper bound it does not pass, as Prometheus's le counts", (t) => {
  t.is(completionBucket(0), '0.1');
  t.is(completionBucket(0.1), '0.1');
  t.is(completionBucket(0.1001), '0.25');
  t.is(completionBucket(2.5), '2.5');
  t.is(completionBucket(300), '300');
  t.is(completionBucket(300.5), '+Inf');
});
