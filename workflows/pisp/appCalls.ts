import type { UpdateDefinition } from '@temporalio/common';
import { allHandlersFinished, condition, setHandler, upsertSearchAttributes } from '@temporalio/workflow';
import { State } from '../../activities/shared/contracts/searchAttributes';
import type { ErrorInformation } from '../../activities/shared/contracts/errors';

/** One call of the PISP's app that the conversation has taken: its body, and the answer the app is waiting for. */
export interface AppCall<In, Out> {
  input: In;
  answer(body: Out): void;
}

/** How long a conversation waits for the app's next call (the user reading an OTP, confirming a payee) before it ends. */
export const APP_IDLE_MS = 24 * 60 * 60 * 1000;

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyUpdate = UpdateDefinition<any, [any]>;

/**
 * The app's calls to a conversation, each a workflow update that waits until the conversation answers it. The
 * conversation takes the call its next step needs (`next`); a call it does not expect now (out of order, repeated, or
 * while another is being answered) is refused by the update's validator, before anything is recorded, so the app
 * learns it at once.
 */
export class AppCalls {
  private expecting?: string;
  private readonly arrived: Array<{ input: unknown; answered: boolean; body?: unknown }> = [];

  /** `updates` in the order the conversation takes them; the first is expected at once (it started the workflow). */
  constructor(updates: AnyUpdate[]) {
    // The update that starts the workflow (update-with-start) is validated before the workflow's code first yields.
    this.expecting = updates[0]?.name;
    for (const update of updates) {
      setHandler(
        update,
        async (input: unknown) => {
          this.expecting = undefined;
          const call = { input, answered: false, body: undefined as unknown };
          this.arrived.push(call);
          await condition(() => call.answered);
          return call.body;
        },
        {
          validator: (_input: unknown) => {
            if (this.expecting !== update.name)
              throw new Error(
                this.expecting ? `the conversation waits for ${this.expecting}, not ${update.name}` : `the conversation takes no ${update.name} now`,
              );
          },
        },
      );
    }
  }

  /** The app's next call, which must be `update`; undefined if none came within `timeoutMs`. */
  async next<Out, In>(update: UpdateDefinition<Out, [In]>, timeoutMs: number): Promise<AppCall<In, Out> | undefined> {
    this.expecting = update.name;
    const came = await condition(() => this.arrived.length > 0, Math.max(timeoutMs, 1));
    this.expecting = undefined;
    if (!came) return undefined;
    const call = this.arrived.shift()!;
    return {
      input: call.input as In,
      answer: (body: Out) => {
        call.body = body;
        call.answered = true;
      },
    };
  }

  /** Lets the last answers reach the app before the conversation's workflow completes. */
  finished(): Promise<void> {
    return condition(allHandlersFinished);
  }
}

/** Where the conversation stands, as the SDK's `currentState` names it; an operator filters on it (State). */
export function enter(state: string): void {
  upsertSearchAttributes([{ key: State, value: state }]);
}

/** The SDK's answer for a step that failed, after which the conversation is over. */
export function errored(errorInformation: ErrorInformation): { currentState: 'errored'; errorInformation: ErrorInformation } {
  enter('errored');
  return { currentState: 'errored', errorInformation };
}
