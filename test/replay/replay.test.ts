import fs from 'node:fs';
import path from 'node:path';
import test from 'ava';
import { historyFromJSON } from '@temporalio/common/lib/proto-utils';
import { DefaultLogger, Runtime, Worker } from '@temporalio/worker';
import { repoRoot } from '../../activities/shared/platform/config';
import { workflowsPath } from '../../worker/createWorker';
import { connectorBundle, connectorWorkflowsPaths } from '../helpers/connectors';

const historiesDir = path.join(repoRoot, 'test', 'replay', 'histories');

// The replay workers' state changes are routine; a failed replay is reported by the test itself.
Runtime.install({ logger: new DefaultLogger('WARN') });

/**
 * Each set of histories and the workflows they replay against: the hub's (histories/), and each connector role's
 * (histories/dfsp, histories/pisp), with the representative runs each must hold.
 */
const suites = [
  {
    name: 'the hub',
    dir: historiesDir,
    bundle: process.env.WORKFLOW_BUNDLE,
    workflowsPath,
    expected: [
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
    ],
  },
  {
    name: 'the DFSP connector',
    dir: path.join(historiesDir, 'dfsp'),
    bundle: connectorBundle('dfsp'),
    workflowsPath: connectorWorkflowsPaths.WORKFLOW_BUNDLE_DFSP,
    expected: [
      'exchange-quotes',
      'dfspLinking-linked-otp-generic',
      'dfspLinking-linked-web-fido',
      'dfspThirdpartyTransaction-completed',
      'dfspThirdpartyTransaction-rejected',
      'dfspThirdpartyTransaction-refused',
      'dfspAccounts-answered',
      'dfspTransactionStatus-answered',
      'dfspUnlinking-revoked',
      'dfspConsentRequestRepeat-answered',
      'payeeParty-found',
      'payeeQuote-quoted',
      'payeeTransfer-committed',
      'dfspTransfer-completed',
    ],
  },
  {
    name: 'the PISP connector',
    dir: path.join(historiesDir, 'pisp'),
    bundle: connectorBundle('pisp'),
    workflowsPath: connectorWorkflowsPaths.WORKFLOW_BUNDLE_PISP,
    expected: [
      'exchange-accounts',
      'pispLinking-linked-otp-generic',
      'pispLinking-linked-web-fido',
      'pispTransaction-completed',
      'pispTransaction-rejected',
      'pispTransaction-refused',
      'pispUnlinking-revoked',
    ],
  },
];

for (const suite of suites) {
  const files = fs
    .readdirSync(suite.dir)
    .filter((file) => file.endsWith('.json'))
    .sort();

  test(`recorded histories of ${suite.name} cover the representative runs`, (t) => {
    for (const name of suite.expected) t.true(files.includes(`${name}.json`), name);
  });

  test(`every recorded history of ${suite.name} replays deterministically against the current workflow code`, async (t) => {
    const histories = files.map((file) => ({
      workflowId: file.replace(/\.json$/, ''),
      history: historyFromJSON(JSON.parse(fs.readFileSync(path.join(suite.dir, file), 'utf-8'))),
    }));
    const options = suite.bundle && fs.existsSync(suite.bundle) ? { workflowBundle: { codePath: suite.bundle } } : { workflowsPath: suite.workflowsPath };
    let replayed = 0;
    for await (const result of Worker.runReplayHistories(options, histories)) {
      t.is(result.error, undefined, `${result.workflowId}: ${result.error?.message}`);
      replayed++;
    }
    t.is(replayed, files.length);
  });
}
