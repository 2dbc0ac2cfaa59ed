import crypto from 'node:crypto';
import http from 'node:http';
import https from 'node:https';
import { Client, Connection, type TLSConfig } from '@temporalio/client';
import type { HubConfig } from '../activities/shared/platform/config';
import { temporalConnectionOptions } from '../activities/shared/platform/tlsFiles';
import { healthCheck } from '../workflows';

export interface ReadinessOptions {
  /** The admin API's /health address. */
  healthUrl: string;
  temporalAddress: string;
  temporalTls?: TLSConfig;
  namespace: string;
  taskQueue: string;
  timeoutMs: number;
  /** Why start-up has already failed (a process exited), checked between polls; undefined while all is well. */
  failed?: () => string | undefined;
}

/**
 * Waits until the hub really works: the gateway's /health answers OK, and a `healthCheck` workflow runs
 * to completion, which proves a worker polls the task queue and its activities reach the database.
 */
export async function waitUntilReady(options: ReadinessOptions): Promise<void> {
  const deadline = Date.now() + options.timeoutMs;
  let last = 'no answer yet';
  for (;;) {
    const failure = options.failed?.();
    if (failure) throw new Error(failure);
    try {
      const { status, text } = await askHealth(options.healthUrl);
      if (status === 200) break;
      last = `${status} ${text}`;
    } catch (error) {
      last = (error as Error).message;
    }
    if (Date.now() > deadline) throw new Error(`${options.healthUrl} was not healthy within ${options.timeoutMs / 1000} s (${last})`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  const connection = await Connection.connect({ address: options.temporalAddress, tls: options.temporalTls });
  try {
    await new Client({ connection, namespace: options.namespace }).workflow.execute(healthCheck, {
      taskQueue: options.taskQueue,
      workflowId: `healthCheck/${crypto.randomUUID()}`,
      workflowExecutionTimeout: Math.max(1_000, deadline - Date.now()),
    });
  } finally {
    await connection.close();
  }
}

/**
 * The wait of a launcher (`npm start`, `npm run topology`) for the hub it started, whose processes stop together
 * (`stopTogether`): given up as soon as they are stopping.
 */
export function waitUntilLaunched(config: HubConfig, healthUrl: string, temporalAddress: string, stopping: () => boolean): Promise<void> {
  // The processes it started got TEMPORAL_TLS_* from it, so it reaches Temporal as they do.
  const { tls } = temporalConnectionOptions(config);
  return waitUntilReady({
    healthUrl,
    temporalAddress,
    temporalTls: tls,
    namespace: config.temporalNamespace,
    taskQueue: config.taskQueue,
    timeoutMs: 120_000,
    failed: () => (stopping() ? 'a hub process exited during start-up (see its output above)' : undefined),
  });
}

/**
 * One GET of a /health address. Over HTTPS the server's certificate is not checked: the launcher asks a process it
 * has just started, sends nothing secret, and trusts no answer but "up"; that certificate may come from a scheme CA
 * this process has no reason to know.
 */
function askHealth(url: string): Promise<{ status: number; text: string }> {
  const client = url.startsWith('https:') ? https : http;
  return new Promise((resolve, reject) => {
    const request = client.get(url, { rejectUnauthorized: false, timeout: 5_000 }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf-8') }));
      response.on('error', reject);
    });
    request.on('timeout', () => request.destroy(new Error('no answer within 5 s')));
    request.on('error', reject);
  });
}
