// Where the time of `npm run bench` goes: CPU and disk writes per process over the measured window, and what each
// conversation costs the Temporal server, counted from the histories of a sample of them.

import fs from 'node:fs';
import { performance } from 'node:perf_hooks';
import type { Client } from '@temporalio/client';

/** A process whose use of the machine the bench reports. */
export interface Measured {
  name: string;
  pid: number;
}

interface Counters {
  cpuS: number;
  writtenBytes: number;
}

/** What a process used over a window: CPU seconds, bytes written to storage, and CPU as cores busy on average. */
export interface Usage extends Measured, Counters {
  cores: number;
}

const CLOCK_TICKS_PER_S = 100; // USER_HZ, the unit of /proc/<pid>/stat's times on Linux

/** CPU seconds (user + system) and bytes written to storage by a process so far; zeros where /proc cannot tell. */
function countersOf(pid: number): Counters {
  try {
    // Fields after the command name (which may hold spaces): utime is the 14th field of the line, stime the 15th.
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const cpuS = (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS_PER_S;
    const io = fs.readFileSync(`/proc/${pid}/io`, 'utf8');
    const writtenBytes = Number(/^write_bytes: (\d+)$/m.exec(io)?.[1] ?? 0);
    return { cpuS, writtenBytes };
  } catch {
    return { cpuS: 0, writtenBytes: 0 };
  }
}

/** A process's resident memory in MB (0 once it is gone). */
export function residentMb(pid: number): number {
  try {
    const kb = Number(/^VmRSS:\s+(\d+) kB$/m.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0);
    return kb / 1024;
  } catch {
    return 0;
  }
}

/** The processes `pid` started, as Linux lists them (none where /proc cannot tell). */
export function childPids(pid: number): number[] {
  try {
    return fs.readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number);
  } catch {
    return [];
  }
}

/** The first process running one of these programs, for a server the bench did not start (the MySQL server). */
export function processNamed(names: string[]): number | undefined {
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (names.includes(fs.readFileSync(`/proc/${entry}/comm`, 'utf8').trim())) return Number(entry);
    } catch {
      // gone meanwhile
    }
  }
  return undefined;
}

/** Each process's CPU and writes between `start()` and `stop()`. */
export class UsageMeter {
  private started = new Map<number, Counters>();
  private startedAt = 0;

  constructor(private readonly processes: Measured[]) {}

  start(): void {
    this.startedAt = performance.now();
    this.started = new Map(this.processes.map(({ pid }) => [pid, countersOf(pid)]));
  }

  stop(): Usage[] {
    const windowS = (performance.now() - this.startedAt) / 1000;
    return this.processes.map((process) => {
      const before = this.started.get(process.pid) ?? { cpuS: 0, writtenBytes: 0 };
      const now = countersOf(process.pid);
      const cpuS = now.cpuS - before.cpuS;
      return { ...process, cpuS, writtenBytes: now.writtenBytes - before.writtenBytes, cores: windowS > 0 ? cpuS / windowS : 0 };
    });
  }
}

/** What a conversation's history holds, per run on average. */
export interface HistoryCost {
  runs: number;
  events: number;
  workflowTasks: number;
  activityTasks: number;
  localActivities: number;
  signals: number;
  searchAttributeUpserts: number;
  timers: number;
}

const COUNTED: Array<[keyof Omit<HistoryCost, 'runs' | 'events'>, string]> = [
  ['workflowTasks', 'workflowTaskCompletedEventAttributes'],
  ['activityTasks', 'activityTaskScheduledEventAttributes'],
  ['localActivities', 'markerRecordedEventAttributes'],
  ['signals', 'workflowExecutionSignaledEventAttributes'],
  ['searchAttributeUpserts', 'upsertWorkflowSearchAttributesEventAttributes'],
  ['timers', 'timerStartedEventAttributes'],
];

/** The average history of the given workflows (those that cannot be read are left out). */
export async function historyCost(client: Client, workflowIds: string[]): Promise<HistoryCost> {
  const total: HistoryCost = { runs: 0, events: 0, workflowTasks: 0, activityTasks: 0, localActivities: 0, signals: 0, searchAttributeUpserts: 0, timers: 0 };
  for (const workflowId of workflowIds) {
    const history = await client.workflow
      .getHandle(workflowId)
      .fetchHistory()
      .catch(() => undefined);
    if (!history?.events?.length) continue;
    total.runs++;
    total.events += history.events.length;
    for (const event of history.events) {
      for (const [counter, attributes] of COUNTED) if ((event as Record<string, unknown>)[attributes]) total[counter]++;
    }
  }
  if (total.runs === 0) return total;
  const average = { ...total };
  for (const key of Object.keys(total) as Array<keyof HistoryCost>) if (key !== 'runs') average[key] = total[key] / total.runs;
  return average;
}

/**
 * Requests the server answers for one run of a conversation: its start and each signal (from the gateway), and a poll
 * and a completion for each workflow task and each activity task (from the worker). Local activities cost none.
 */
export function serverRequests(cost: HistoryCost): number {
  return 1 + cost.signals + 2 * cost.workflowTasks + 2 * cost.activityTasks;
}
