import test from 'ava';
import { ClosedMinutes, SETTLE_MINUTES } from '../../../../../activities/hub/metrics/closedMinutes';

/** A table of figures per minute, and the reads of it a window made (from which minute on). */
function table(figures: Map<number, string>) {
  const reads: number[] = [];
  const read = async (from: number) => {
    reads.push(from);
    return new Map([...figures].filter(([minute]) => minute >= from));
  };
  return { reads, read };
}

test('a minute over is read once: later windows read only the minutes not over when they were last read', async (t) => {
  const figures = new Map([
    [100, 'a'],
    [105, 'b'],
    [109, 'c'],
  ]);
  const { reads, read } = table(figures);
  const minutes = new ClosedMinutes<string>(4, 60);
  t.deepEqual([...(await minutes.window('all', 100, 109, read))], [...figures]);
  // A figure of a minute that was not over yet changes: it is read again.
  figures.set(109, 'c2');
  figures.set(110, 'd');
  t.deepEqual(
    [...(await minutes.window('all', 101, 110, read))],
    [
      [105, 'b'],
      [109, 'c2'],
      [110, 'd'],
    ],
  );
  t.deepEqual(reads, [100, 109 - SETTLE_MINUTES + 1], 'the second read starts after the last minute over at the first');
});

test('a window reaching before what is kept is read whole; one of another key has its own minutes', async (t) => {
  const { reads, read } = table(new Map([[50, 'x']]));
  const minutes = new ClosedMinutes<string>(4, 60);
  await minutes.window('all', 40, 60, read);
  await minutes.window('all', 30, 60, read);
  await minutes.window('USD', 40, 60, read);
  t.deepEqual(reads, [40, 30, 40]);
});

test('the windows least lately read are forgotten past the number kept', async (t) => {
  const { reads, read } = table(new Map());
  const minutes = new ClosedMinutes<string>(2, 60);
  for (const key of ['a', 'b', 'c', 'a']) await minutes.window(key, 10, 20, read);
  t.deepEqual(reads, [10, 10, 10, 10], 'a, b, c, then a again, forgotten when c came');
  await minutes.window('c', 10, 20, read);
  t.is(reads[4], 20 - SETTLE_MINUTES + 1, 'c, read lately, is kept');
});
