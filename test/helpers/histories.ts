import type { Client } from '@temporalio/client';
import { workflowIds } from '../../activities/shared/contracts/conversations';
import { pollUntil } from './polling';

/** The names of the signals a workflow's history holds (its latest run's), in order. */
export async function signalsTo(client: Client, workflowId: string): Promise<string[]> {
  const { events } = await client.workflow.getHandle(workflowId).fetchHistory();
  return (events ?? []).flatMap((event) => {
    const signalled = event.workflowExecutionSignaledEventAttributes;
    return signalled ? [signalled.signalName ?? ''] : [];
  });
}

/**
 * Why each of a workflow's tasks failed, in order, as Temporal numbers the cause (1, UnhandledCommand: a signal came
 * while the task completed the workflow); none for a run whose every task was recorded as it first ran.
 */
export async function failedWorkflowTasks(client: Client, workflowId: string): Promise<string[]> {
  const { events } = await client.workflow.getHandle(workflowId).fetchHistory();
  return (events ?? []).flatMap((event) => {
    const failed = event.workflowTaskFailedEventAttributes;
    return failed ? [failed.failure?.message || `cause ${failed.cause}`] : [];
  });
}

/** How many events each run of a workflow ID holds, first run first, with how the run ended. */
export async function runsOf(client: Client, workflowId: string): Promise<Array<{ events: number; status: string }>> {
  const runs: Array<{ events: number; status: string; started: number }> = [];
  for await (const run of client.workflow.list({ query: `WorkflowId = '${workflowId}'` })) {
    runs.push({ events: run.historyLength, status: run.status.name, started: run.startTime.getTime() });
  }
  return runs.sort((a, b) => a.started - b.started).map(({ events, status }) => ({ events, status }));
}

/** Waits until the follow-ups started about a conversation (answers from its record) have all run. */
export async function followUpsRun(client: Client, resource: string, id: string): Promise<void> {
  const query = `WorkflowId STARTS_WITH '${workflowIds.followUp(resource, id, '')}'`;
  const statuses = async () => {
    const found: string[] = [];
    for await (const run of client.workflow.list({ query })) found.push(run.status.name);
    return found;
  };
  const seen = await pollUntil(statuses, (found) => found.length > 0 && found.every((status) => status === 'COMPLETED'));
  if (seen.length === 0 || seen.some((status) => status !== 'COMPLETED')) throw new Error(`follow-ups of ${resource} ${id}: ${seen.join(', ') || 'none'}`);
}
