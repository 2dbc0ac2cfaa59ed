// Preloaded into the Temporal SDK's workflow thread by worker/workflowThread.ts: without `createHook` the SDK records
// no creation stack for each promise of workflow code (it takes the path it takes where promise hooks do not exist).
import v8 from 'node:v8';

const unavailable = (): never => {
  throw new Error("promise hooks are off in the hub's workflow thread (WORKFLOW_STACK_TRACES=true turns them on)");
};
Object.defineProperty(v8, 'promiseHooks', { value: { ...v8.promiseHooks, createHook: unavailable } });
