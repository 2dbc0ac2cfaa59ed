import type { Client, WorkflowStartOptions } from '@temporalio/client';
import { WorkflowExecutionAlreadyStartedError, WorkflowIdReusePolicy, WorkflowNotFoundError } from '@temporalio/common';
import type { SignalDefinition, Workflow } from '@temporalio/common';
import { codeRevisionMemo } from '../../activities/shared/contracts/codeRevision';
import type { SwitchDependencies } from './switchApp';

/**
 * Starts the conversation's workflow, or — its ID being the idempotency key — tells the running one that
 * the request was repeated. 'finished' means the conversation is over and the caller applies the
 * duplicate rule to the stored record instead.
 */
export async function startOrRepeat<W extends Workflow, R>(
  { temporal: client, eagerStart }: Pick<SwitchDependencies, 'temporal' | 'eagerStart'>,
  workflow: W,
  options: WorkflowStartOptions<W>,
  repeatSignal: SignalDefinition<[R]>,
  repeat: R,
): Promise<'started' | 'repeated' | 'finished'> {
  try {
    // A finished conversation's ID is never reused: its record answers repeats.
    await client.workflow.start(workflow, {
      ...options,
      memo: codeRevisionMemo(),
      workflowIdReusePolicy: WorkflowIdReusePolicy.REJECT_DUPLICATE,
      ...(eagerStart && { requestEagerStart: true }),
    });
    return 'started';
  } catch (error) {
    if (!(error instanceof WorkflowExecutionAlreadyStartedError)) throw error;
  }
  return (await signalIfRunning(client, options.workflowId, repeatSignal, repeat)) ? 'repeated' : 'finished';
}

/** Delivers a callback to its conversation; false when no such conversation is running any more. */
export async function signalIfRunning<A extends unknown[]>(client: Client, workflowId: string, signal: SignalDefinition<A>, ...args: A): Promise<boolean> {
  try {
    await client.workflow.getHandle(workflowId).signal(signal, ...args);
    return true;
  } catch (error) {
    if (error instanceof WorkflowNotFoundError) return false;
    throw error;
  }
}
