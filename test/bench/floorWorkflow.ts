import { condition, defineSignal, setHandler } from '@temporalio/workflow';

/** The one signal the floor workflow waits for. */
export const floorGoSignal = defineSignal('go');

/**
 * The Temporal floor of `npm run bench`: the least a signalled workflow costs on this server (start, one
 * signal, complete), with no activities. The hub's transfer and quote workflows do this and more.
 */
export async function floor(): Promise<string> {
  let go = false;
  setHandler(floorGoSignal, () => {
    go = true;
  });
  await condition(() => go);
  return 'done';
}
