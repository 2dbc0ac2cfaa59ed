// Where the time of `npm run bench` goes: CPU and disk writes per process over the measured window, and what each
// conversation costs the Temporal server, counted from the histories of a sample of them.

import fs from 'node:fs';
import { performance } from 'node:perf_hooks';
import type { Client } from '@temporalio/client';

/** A process whose use of the machine the bench reports; a Temporal worker's threads are reported apart. */
export interface Measured {
  name: string;
  pid: number;
  runsWorkflows?: boolean;
}

/**
 * The threads of a Temporal worker process by what they do: the main thread (activities, HTTP, SQLite), the worker
 * thread the SDK runs workflow code in, V8's helpers (garbage collection, compilation), and the Rust core's threads.
 */
export type ThreadRole = 'main thread' | 'workflow thread' | 'V8 helpers' | 'Rust core';
export const THREAD_ROLES: ThreadRole[] = ['main thread', 'workflow thread', 'V8 helpers', 'Rust core'];

interface ThreadCounter {
  comm: string;
  cpuS: number;
}

interface Counters {
  cpuS: number;
  writtenBytes: number;
  threads?: Map<number, ThreadCounter>;
}

/** What a process used over a window: CPU seconds, bytes written to storage, CPU as cores busy on average, peak memory. */
export interface Usage extends Measured, Omit<Counters, 'threads'> {
  threads?: Record<ThreadRole, number>;
  cores: number;
  /** The most resident memory the process has held since it started (VmHWM), in MB. */
  peakMb: number;
}

const CLOCK_TICKS_PER_S = 100; // USER_HZ, the unit of /proc/<pid>/stat's times on Linux

/** The fields of a /proc stat line after the command name (which may hold spaces): the 3rd field of the line is [0]. */
function statFields(file: string): string[] {
  const stat = fs.readFileSync(file, 'utf8');
  return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
}

/** utime (14th field of the line) + stime (15th), in seconds. */
const cpuSecondsOf = (fields: string[]) => (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS_PER_S;

/** Each thread's name and CPU seconds so far, by thread ID (a thread that ended meanwhile is left out). */
function threadCounters(pid: number): Map<number, ThreadCounter> {
  const threads = new Map<number, ThreadCounter>();
  for (const tid of fs.readdirSync(`/proc/${pid}/task`)) {
    try {
      const comm = fs.readFileSync(`/proc/${pid}/task/${tid}/comm`, 'utf8').trim();
      threads.set(Number(tid), { comm, cpuS: cpuSecondsOf(statFields(`/proc/${pid}/task/${tid}/stat`)) });
    } catch {
      // ended meanwhile
    }
  }
  return threads;
}

/**
 * A worker process's CPU over a window by role. Every thread of Node's own is called "node": the workflow thread is
 * the busiest of them after the main thread (V8's helpers each use a fraction of it under load); the Rust core names
 * its own (tokio-runtime-w, workflow-proces, …).
 */
function threadRoles(pid: number, now: Map<number, ThreadCounter>, before: Map<number, ThreadCounter>): Record<ThreadRole, number> {
  const used = [...now].map(([tid, { comm, cpuS }]) => ({ tid, comm, cpuS: cpuS - (before.get(tid)?.cpuS ?? 0) }));
  const busiest = used.filter((t) => t.comm === 'node' && t.tid !== pid).sort((a, b) => b.cpuS - a.cpuS)[0];
  const roles: Record<ThreadRole, number> = { 'main thread': 0, 'workflow thread': 0, 'V8 helpers': 0, 'Rust core': 0 };
  for (const t of used) {
    const role: ThreadRole = t.tid === pid ? 'main thread' : t === busiest ? 'workflow thread' : t.comm === 'node' ? 'V8 helpers' : 'Rust core';
    roles[role] += t.cpuS;
  }
  return roles;
}

/** CPU seconds (user + system) and bytes written to storage by a process so far; zeros where /proc cannot tell. */
function countersOf({ pid, runsWorkflows }: Measured): Counters {
  try {
    const cpuS = cpuSecondsOf(statFields(`/proc/${pid}/stat`));
    const io = fs.readFileSync(`/proc/${pid}/io`, 'utf8');
    const writtenBytes = Number(/^write_bytes: (\d+)$/m.exec(io)?.[1] ?? 0);
    return { cpuS, writtenBytes, threads: runsWorkflows ? threadCounters(pid) : undefined };
  } catch {
    return { cpuS: 0, writtenBytes: 0 };
  }
}

/** A line of /proc/<pid>/status in MB (0 once the process is gone). */
function statusMb(pid: number, field: 'VmRSS' | 'VmHWM'): number {
  try {
    const kb = Number(new RegExp(`^${field}:\\s+(\\d+) kB$`, 'm').exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0);
    return kb / 1024;
  } catch {
    return 0;
  }
}

/** A process's resident memory in MB (0 once it is gone). */
export const residentMb = (pid: number): number => statusMb(pid, 'VmRSS');

/** The most resident memory a process has held since it started, in MB (0 once it is gone). */
export const peakResidentMb = (pid: number): number => statusMb(pid, 'VmHWM');

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
    this.started = new Map(this.processes.map((process) => [process.pid, countersOf(process)]));
  }

  stop(): Usage[] {
    const windowS = (performance.now() - this.startedAt) / 1000;
    return this.processes.map((process) => {
      const before = this.started.get(process.pid) ?? { cpuS: 0, writtenBytes: 0 };
      const now = countersOf(process);
      const cpuS = now.cpuS - before.cpuS;
      const threads = now.threads && before.threads && threadRoles(process.pid, now.threads, before.threads);
      const cores = windowS > 0 ? cpuS / windowS : 0;
      return { ...process, cpuS, writtenBytes: now.writtenBytes - before.writtenBytes, threads, cores, peakMb: peakResidentMb(process.pid) };
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
  /** Runs whose first workflow task came back with their start (eager start) rather than to a poll. */
  eagerStarts: number;
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
  const total: HistoryCost = {
    runs: 0,
    events: 0,
    workflowTasks: 0,
    activityTasks: 0,
    localActivities: 0,
    signals: 0,
    searchAttributeUpserts: 0,
    timers: 0,
    eagerStarts: 0,
  };
  for (const workflowId of workflowIds) {
    const history = await client.workflow
      .getHandle(workflowId)
      .fetchHistory()
      .catch(() => undefined);
    if (!history?.events?.length) continue;
    total.runs++;
    total.events += history.events.length;
    if (history.events[0].workflowExecutionStartedEventAttributes?.eagerExecutionAccepted) total.eagerStarts++;
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
 * and a completion for each workflow task and each activity task (from the worker); an eager start's first workflow
 * task needs no poll. Local activities cost none.
 */
export function serverRequests(cost: HistoryCost): number {
  return 1 + cost.signals + 2 * cost.workflowTasks + 2 * cost.activityTasks - cost.eagerStarts;
}
