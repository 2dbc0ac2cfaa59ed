import { Client, WithStartWorkflowOperation, WorkflowNotFoundError, WorkflowUpdateFailedError } from '@temporalio/client';
import { WorkflowExecutionAlreadyStartedError, type QueryDefinition, type UpdateDefinition } from '@temporalio/common';
import type { ConnectorConfig } from '../../activities/connector/connectorConfig';
import type * as app from '../../workflows/pisp/appApi';
import type { PispLinkingOutcome } from '../../activities/shared/contracts/pispLinking';
import type { PispTransactionOutcome } from '../../workflows/pisp/pispTransaction';
import { HttpError } from '../../activities/shared/platform/httpError';

/**
 * The app's calls to its conversations (pispLinking, pispTransaction), each a workflow update answered once the
 * conversation has its answer. What goes wrong is the app's mistake and answered as the SDK answers it: a call the
 * conversation refused (out of order, or repeated) 409, as is one to a conversation that is over; one to a
 * conversation that never started 404; a first call with an ID already taken 422.
 */
export class AppConversations {
  private readonly conversation: app.PispConversationInput;

  constructor(
    private readonly client: Client,
    private readonly config: Pick<ConnectorConfig, 'taskQueue' | 'requestTimeoutMs'>,
  ) {
    this.conversation = { requestTimeoutMs: config.requestTimeoutMs };
  }

  /**
   * The first call of a conversation starts it. An ID any conversation has had, running or over, is refused 422 as
   * the SDK refuses a transactionRequestId it holds: a closed conversation's ID reused would send its requests again
   * under an ID the DFSP has already seen.
   */
  start<Ret, Arg>(workflowType: 'pispLinking' | 'pispTransaction', workflowId: string, update: UpdateDefinition<Ret, [Arg]>, arg: Arg): Promise<Ret> {
    return this.call(workflowId, () =>
      this.client.workflow.executeUpdateWithStart(update, {
        args: [arg],
        startWorkflowOperation: new WithStartWorkflowOperation<(input: app.PispConversationInput) => Promise<PispLinkingOutcome | PispTransactionOutcome>>(
          workflowType,
          {
            workflowId,
            taskQueue: this.config.taskQueue,
            args: [this.conversation],
            workflowIdConflictPolicy: 'FAIL',
            workflowIdReusePolicy: 'REJECT_DUPLICATE',
          },
        ),
      }),
    );
  }

  /** A later call of a running conversation. */
  continue<Ret, Arg>(workflowId: string, update: UpdateDefinition<Ret, [Arg]>, arg: Arg): Promise<Ret> {
    return this.call(workflowId, () => this.client.workflow.getHandle(workflowId).executeUpdate(update, { args: [arg] }));
  }

  /** Where a conversation stands, running or over. */
  query<Ret>(workflowId: string, query: QueryDefinition<Ret>): Promise<Ret> {
    return this.call(workflowId, () => this.client.workflow.getHandle(workflowId).query(query));
  }

  private async call<Ret>(workflowId: string, update: () => Promise<Ret>): Promise<Ret> {
    try {
      return await update();
    } catch (error) {
      if (error instanceof WorkflowExecutionAlreadyStartedError)
        throw new HttpError(422, 'clientError', `${workflowId} exists: a new conversation needs an ID of its own`);
      if (error instanceof WorkflowNotFoundError) {
        const closed = await this.client.workflow
          .getHandle(workflowId)
          .describe()
          .catch(() => undefined);
        if (closed) throw new HttpError(409, 'clientError', `the conversation ${workflowId} is over (${closed.status.name})`);
        throw new HttpError(404, 'idNotFound', 'no such conversation: start it with its first call');
      }
      if (error instanceof WorkflowUpdateFailedError) throw new HttpError(409, 'clientError', (error.cause as Error | undefined)?.message ?? error.message);
      throw error;
    }
  }
}
