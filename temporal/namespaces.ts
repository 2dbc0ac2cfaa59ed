import { Connection, type TLSConfig } from '@temporalio/client';
import { encodeSearchAttributeIndexedValueType } from '@temporalio/common/lib/search-attributes';
import { msToTs } from '@temporalio/common/lib/time';
import { customSearchAttributes } from '../activities/shared/contracts/searchAttributes';

const ALREADY_EXISTS = 6;
const NOT_FOUND = 5;

const codeOf = (error: unknown) => (error as { code?: number }).code;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The custom search attributes the conversations set, with their types, as the operator service registers them. */
export function searchAttributeTypes() {
  return Object.fromEntries(customSearchAttributes.map((key) => [key.name, encodeSearchAttributeIndexedValueType(key.type)!]));
}

/**
 * Makes sure a participant's namespace exists with the search attributes its conversations set, as an operator
 * would with `temporal operator namespace create` and `… search-attribute create`: a connector can then start against
 * a fresh dev server or a cluster alike. A new namespace takes the server a few seconds to serve everywhere, so this
 * waits until it answers.
 */
export async function ensureNamespace(frontend: { address: string; tls?: TLSConfig }, namespace: string, retentionDays = 7, timeoutMs = 60_000): Promise<void> {
  const connection = await Connection.connect(frontend);
  try {
    try {
      await connection.workflowService.registerNamespace({ namespace, workflowExecutionRetentionPeriod: msToTs(`${retentionDays} days`) });
    } catch (error) {
      if (codeOf(error) !== ALREADY_EXISTS) throw error;
    }
    const deadline = Date.now() + timeoutMs;
    const searchAttributes = searchAttributeTypes();
    for (;;) {
      try {
        await connection.operatorService.addSearchAttributes({ namespace, searchAttributes });
        break;
      } catch (error) {
        if (codeOf(error) === ALREADY_EXISTS) break;
        if (codeOf(error) !== NOT_FOUND || Date.now() > deadline) throw error;
        await sleep(250);
      }
    }
    for (;;) {
      try {
        await connection.workflowService.countWorkflowExecutions({ namespace, query: '' });
        return;
      } catch (error) {
        if (codeOf(error) !== NOT_FOUND || Date.now() > deadline) throw error;
        await sleep(250);
      }
    }
  } finally {
    await connection.close();
  }
}
