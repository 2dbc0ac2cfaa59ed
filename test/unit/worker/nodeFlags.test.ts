import test from 'ava';
import { loadConfig } from '../../../activities/shared/platform/config';
import { hubNodeFlags } from '../../../worker/nodeFlags';

// The memory and cache settings `npm start` runs the hub with, as operators set them in the environment.

test("npm start gives the hub's processes a 384 MB heap ceiling unless HUB_HEAP_MB says otherwise", (t) => {
  t.deepEqual(hubNodeFlags({}), ['--max-old-space-size=384']);
  t.deepEqual(hubNodeFlags({ HUB_HEAP_MB: '1024' }), ['--max-old-space-size=1024']);
  t.throws(() => hubNodeFlags({ HUB_HEAP_MB: 'lots' }), { message: /HUB_HEAP_MB must be a non-negative integer/ });
});

test("WORKFLOW_CACHE_SIZE sets the worker's workflow cache; unset, the worker keeps its own default", (t) => {
  t.is(loadConfig({ WORKFLOW_CACHE_SIZE: '250' }).workflowCacheSize, 250);
  t.is(loadConfig({}).workflowCacheSize, undefined);
  t.throws(() => loadConfig({ WORKFLOW_CACHE_SIZE: '-1' }), { message: /WORKFLOW_CACHE_SIZE/ });
});

test('WORKFLOW_STACK_TRACES is off unless set to true', (t) => {
  t.false(loadConfig({}).workflowStackTraces);
  t.true(loadConfig({ WORKFLOW_STACK_TRACES: 'true' }).workflowStackTraces);
});
