import crypto from 'node:crypto';
import type { StalePage, SweepCursor } from '../../../activities/hub/conversations/reservationSweep';
import type { reservationSweep } from '../../../workflows/hub/reservationSweep';
import { rejection, StubActivities, stubbedWorkflowTest, type StubbedWorkflows } from '../../helpers/stubbedWorkflows';

// The reservation sweep (the backstop behind each transfer's own expiry, run every minute by a Schedule) with stub
// ledger activities: it reads stale reservations a page at a time and releases each, whatever another release does.

const cursor: SweepCursor = { expiration: '2030-01-01T00:00:00.000Z', transferId: 'b' };
let pages: Array<StalePage | string[]> = [];
const stubs = new StubActivities({
  staleReservations: async () => pages.shift() ?? { transferIds: [] },
  releaseStaleReservation: async () => undefined,
});
const test = stubbedWorkflowTest('hub', stubs);

const sweep = (t: { context: StubbedWorkflows }) =>
  t.context.client.workflow.execute<typeof reservationSweep>('reservationSweep', {
    workflowId: `reservationSweep/${crypto.randomUUID()}`,
    taskQueue: t.context.taskQueue,
    args: [],
  });

test.serial('the sweep releases every stale reservation, reading page after page from where the last one ended', async (t) => {
  pages = [{ transferIds: ['a', 'b'], next: cursor }, { transferIds: ['c'] }];
  t.is(await sweep(t), 3);
  t.deepEqual(stubs.inputs('staleReservations'), [undefined, cursor]);
  t.deepEqual(stubs.inputs('releaseStaleReservation'), ['a', 'b', 'c']);
});

test.serial('a release that fails holds up none of the others: it is left to the next run', async (t) => {
  pages = [{ transferIds: ['a', 'b', 'c'] }];
  stubs.script({
    releaseStaleReservation: async (transferId: string) => {
      if (transferId === 'b') throw rejection('internalServerError', 'the ledger refused');
    },
  });
  t.is(await sweep(t), 2, 'the two released');
  t.deepEqual(stubs.inputs('releaseStaleReservation'), ['a', 'b', 'c']);
});

test.serial('a page recorded as a bare list (before pages) is read as the last page', async (t) => {
  pages = [['a']];
  t.is(await sweep(t), 1);
  t.is(stubs.inputs('staleReservations').length, 1);
});
