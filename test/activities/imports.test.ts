import { spawnSync } from 'node:child_process';
import path from 'node:path';
import test from 'ava';

test('the activity side loads no @temporalio/workflow code (workflow APIs only work inside a workflow sandbox)', (t) => {
  const activities = path.join(__dirname, '..', '..', 'activities', 'index.js');
  const probe = `require(${JSON.stringify(activities)}); console.log(Object.keys(require.cache).filter((file) => file.includes('@temporalio/workflow')).length)`;
  const result = spawnSync(process.execPath, ['-e', probe], { encoding: 'utf-8' });
  t.is(result.status, 0, result.stderr);
  t.is(result.stdout.trim(), '0');
});
