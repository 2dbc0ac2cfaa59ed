import crypto from 'node:crypto';
import anyTest, { type TestFn } from 'ava';
import { ApplicationFailure } from '@temporalio/common';
import type { Client, WorkflowHandle, WorkflowStartOptions } from '@temporalio/client';
import type { Workflow } from '@temporalio/common';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { Worker } from '@temporalio/worker';
import { errorInformation, HUB_REJECTION, type ErrorInformation, type FspiopErrorName } from '../../activities/shared/contracts/errors';
import { startTimeSkipping } from './timeSkipping';
import { type Expiration, expirationAt } from '../../activities/shared/contracts/expiry';

// Workflow tests: one role's workflows on Temporal's time-skipping test server, with activities the test writes
// itself (no database, no gateway, no HTTP). A workflow's expiration of an hour or a day passes in milliseconds
// while the test awaits its result; signals, updates and queries reach it as the gateways send them.

/** Whose workflows a test runs: the hub's or a connector's, with the bundle test/run.ts made of them. */
const roles = {
  hub: { bundle: 'WORKFLOW_BUNDLE', workflows: '../../workflows' },
  dfsp: { bundle: 'WORKFLOW_BUNDLE_DFSP', workflows: '../../workflows/dfsp' },
  pisp: { bundle: 'WORKFLOW_BUNDLE_PISP', workflows: '../../workflows/pisp' },
} as const;

export type Role = keyof typeof roles;

export const MINUTE = 60_000;
export const HOUR = 60 * MINUTE;
export const DAY = 24 * HOUR;

type Activity = (...args: any[]) => unknown;

/** One call a workflow made of a stub activity (each attempt of a retried one is a call). */
export interface ActivityCall {
  activity: string;
  args: any[];
}

/**
 * Activities as a test writes them: the default answer of each, replaced for one test by `script`; every call is
 * recorded, so the test reads what the workflow asked of the world, in order, and waits for a step with `next`.
 */
export class StubActivities {
  readonly calls: ActivityCall[] = [];
  private scripted: Record<string, Activity> = {};
  private readonly listeners = new Set<() => void>();

  constructor(private readonly defaults: Record<string, Activity>) {}

  /** The functions the worker runs, one per default. */
  get activities(): Record<string, Activity> {
    return Object.fromEntries(
      Object.keys(this.defaults).map((activity) => [
        activity,
        async (...args: unknown[]) => {
          this.calls.push({ activity, args });
          for (const listener of this.listeners) listener();
          return (this.scripted[activity] ?? this.defaults[activity])(...args);
        },
      ]),
    );
  }

  /** This test's answers of some activities, until `reset`. */
  script(answers: Record<string, Activity>): void {
    for (const name of Object.keys(answers)) if (!(name in this.defaults)) throw new Error(`no stub activity ${name}`);
    Object.assign(this.scripted, answers);
  }

  /** Forgets the calls and scripted answers of the test before. */
  reset(): void {
    this.calls.length = 0;
    this.scripted = {};
  }

  /** The first argument of each call of `activity`, in order. */
  inputs(activity: string): any[] {
    return this.calls.filter((call) => call.activity === activity).map((call) => call.args[0]);
  }

  /** The first argument of the first call of `activity` that `match` accepts, once the workflow has made it. */
  next(activity: string, match: (input: any) => boolean = () => true, timeoutMs = 20_000): Promise<any> {
    const found = () => this.inputs(activity).find(match);
    return new Promise((resolve, reject) => {
      const check = () => {
        const input = found();
        if (input === undefined) return;
        this.listeners.delete(check);
        clearTimeout(timer);
        resolve(input);
      };
      const timer = setTimeout(() => {
        this.listeners.delete(check);
        reject(new Error(`no call of ${activity} as expected within ${timeoutMs} ms; calls: ${JSON.stringify(this.calls.map((c) => c.activity))}`));
      }, timeoutMs);
      this.listeners.add(check);
      check();
    });
  }
}

/** A business rejection as the hub's activities raise one (activities/index.ts `rejecting`): non-retryable, with its ErrorInformation. */
export function rejection(name: FspiopErrorName, detail?: string): ApplicationFailure {
  const information: ErrorInformation = errorInformation(name, detail);
  return ApplicationFailure.create({ type: HUB_REJECTION, message: information.errorDescription, details: [information], nonRetryable: true });
}

/** A promise the test settles to let a stub activity go on. */
export function gate(): { held: Promise<void>; release: () => void } {
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  return { held, release };
}

/**
 * A stub activity's answer that, on its first call only, first has `happen` happen (a participant's message signalled
 * to the workflow): the message reaches the server while the workflow task that called the activity runs.
 */
export function meanwhile<A extends unknown[], R>(happen: () => Promise<unknown>, answer: (...args: A) => R): (...args: A) => Promise<R> {
  let happened = false;
  return async (...args) => {
    if (!happened) {
      happened = true;
      await happen();
    }
    return answer(...args);
  };
}

export interface StubbedWorkflows {
  environment: TestWorkflowEnvironment;
  /** Waiting on a workflow's result through it lets the server skip time until the workflow ends. */
  client: Client;
  taskQueue: string;
  /** An ISO timestamp `aheadMs` past the server's clock, as an expiration the workflows reckon with. */
  expiration(aheadMs: number): Promise<Expiration>;
  /** Starts a workflow of the role on the file's task queue. */
  start<W extends Workflow>(workflowType: string, workflowId: string, ...args: Parameters<W>): Promise<WorkflowHandle<W>>;
  close(): Promise<void>;
}

/**
 * A time-skipping test server and one worker on it running `role`'s workflows (the prebuilt bundle when the suite
 * runs under test/run.ts, else bundled here) with `activities`; one per test file.
 */
export async function startStubbedWorkflows(role: Role, activities: Record<string, Activity>): Promise<StubbedWorkflows> {
  const environment = await startTimeSkipping();
  const taskQueue = `workflow-test-${crypto.randomUUID()}`;
  const { bundle, workflows } = roles[role];
  const codePath = process.env[bundle];
  const worker = await Worker.create({
    connection: environment.nativeConnection,
    namespace: 'default',
    taskQueue,
    activities,
    ...(codePath ? { workflowBundle: { codePath } } : { workflowsPath: require.resolve(workflows) }),
  });
  const running = worker.run();
  return {
    environment,
    client: environment.client,
    taskQueue,
    expiration: async (aheadMs) => expirationAt((await environment.currentTimeMs()) + aheadMs),
    start: <W extends Workflow>(workflowType: string, workflowId: string, ...args: Parameters<W>) =>
      // The options' type cannot see that a generic W's args are its parameters; the signature keeps callers to them.
      environment.client.workflow.start<W>(workflowType, { workflowId, taskQueue, args } as unknown as WorkflowStartOptions<W>),
    async close() {
      worker.shutdown();
      await running;
      await environment.teardown();
    },
  };
}

/**
 * The file's ava `test`, its workflows on one time-skipping server with `stubs` as their activities: started before
 * the first test, the stubs' calls and scripts forgotten before each, and stopped after the last.
 */
export function stubbedWorkflowTest(role: Role, stubs: StubActivities): TestFn<StubbedWorkflows> {
  const test = anyTest as TestFn<StubbedWorkflows>;
  test.serial.before(async (t) => {
    t.context = await startStubbedWorkflows(role, stubs.activities);
  });
  test.serial.beforeEach(() => stubs.reset());
  test.after.always(async (t) => {
    await t.context.close?.();
  });
  return test;
}
