import fs from 'node:fs';
import path from 'node:path';
import test from 'ava';
import { historyFromJSON } from '@temporalio/common/lib/proto-utils';
import { Worker } from '@temporalio/worker';
import { repoRoot } from '../../activities/platform/config';
import { workflowsPath } from '../../worker/createWorker';

const historiesDir = path.join(repoRoot, 'test', 'replay', 'histories');
const files = fs
  .readdirSync(historiesDir)
  .filter((file) => file.endsWith('.json'))
  .sort();

test('recorded histories cover the representative runs', (t) => {
  for (const name of [
    'transfer-committed',
    'transfer-reserved-patch',
    'transfer-rejected',
    'transfer-expired',
    'transfer-duplicate',
    'quote-accepted',
    'transactionRequest-accepted',
    'transactionRequest-rejected',
    'bulkQuote-accepted',
    'bulkTransfer-completed',
    'bulkTransfer-expired',
    'consent-revoked',
    'linking-linked',
    'thirdpartyTransaction-completed',
    'thirdpartyTransaction-expired',
  ]) {
    t.true(files.includes(`${name}.json`), name);
  }
});

test('every recorded history replays deterministically against the current workflow code', async (t) => {
  const histories = files.map((file) => ({
    workflowId: file.replace(/\.json$/, ''),
    history: historyFromJSON(JSON.parse(fs.readFileSync(path.join(historiesDir, file), 'utf-8'))),
  }));
  const bundle = process.env.WORKFLOW_BUNDLE;
  const options = bundle && fs.existsSync(bundle) ? { workflowBundle: { codePath: bundle } } : { workflowsPath };
  let replayed = 0;
  for await (const result of Worker.runReplayHistories(options, histories)) {
    t.is(result.error, undefined, `${result.workflowId}: ${result.error?.message}`);
    replayed++;
  }
  t.is(replayed, files.length);
});
