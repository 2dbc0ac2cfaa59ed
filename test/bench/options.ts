// The command line of `npm run bench`.

/** What each virtual user does in a loop. */
export type Mode = 'payments' | 'transfers' | 'bulk' | 'thirdparty' | 'settlement';

export interface Options {
  mode: Mode;
  /** Items in each bulk transfer, with --mode bulk (and the bulks that fill the window, with --mode settlement). */
  bulkSize: number;
  /** Committed transfers in the window that --mode settlement closes and settles. */
  settlementTransfers: number;
  /**
   * With --mode settlement: the window's committed transfers written straight into the hub's database between
   * `participants` DFSPs (test/bench/seedSettlement.ts) instead of sent by bulks between two.
   */
  seedDirect: boolean;
  participants: number;
  /** The concurrencies to measure, one phase each, in this order. */
  levels: number[];
  durationS: number;
  warmupS: number;
  timeoutMs: number;
  floor: boolean;
  /** Temporal's dev server in memory instead of on a SQLite file (as `npm start` runs it). */
  temporalInMemory: boolean;
  jws: boolean;
  /** The worker and the gateway as two processes (dist/worker/main.js, dist/api/main.js) instead of `npm start`'s one. */
  twoProcesses: boolean;
  /** The multi-process topology (npm run topology) instead of one worker and one gateway on the dev server. */
  topology?: Topology;
  /** Minutes of load at the first concurrency with memory sampled throughout, instead of the phases. */
  soakMinutes?: number;
  /** A directory for the CPU profiles of the worker and gateway (written as they stop), and their summary. */
  profile?: string;
  /** Where the throughput-against-concurrency chart goes (SVG), when more than one concurrency is measured. */
  chart: string;
  /** A flooding participant's GETs a second: each concurrency is measured again with them coming. */
  flood: number;
  verbose: boolean;
}

export interface Topology {
  workers: number;
  gateways: number;
  historyShards: number;
}

export const USAGE = `usage: npm run bench [-- options]
  --mode M              payments: quote + transfer (default); transfers: pre-quoted transfers only; bulk: pre-quoted
                        bulk transfers; thirdparty: third-party payments from a linked account; settlement: fill the
                        settlement window with --settlement-transfers committed transfers, then time closing it and
                        settling it to SETTLED (env BENCH_MODE)
  --settlement-transfers N
                        committed transfers in the window --mode settlement settles (default 10000)
  --seed-direct         with --mode settlement: write the window's transfers straight into the hub's database, as the
                        ledger and the switch would have, between --participants DFSPs in random pairs (a million
                        takes minutes, not the hours of FSPIOP); the ledger is checked in full before anything is timed
  --participants N      DFSPs the seeded transfers go between (default 50; at least 2)
  --bulk-size N         items in each bulk transfer (default 1000, the most FSPIOP allows; env BENCH_BULK_SIZE)
  --concurrency N[,N…]  virtual users; a list measures each in turn and draws the chart (default 10, env BENCH_CONCURRENCY)
  --duration S          measured seconds per phase (default 20, env BENCH_DURATION)
  --warmup S            unmeasured seconds before each phase (default 3, env BENCH_WARMUP)
  --timeout S           how long a user waits for a callback (default 30, env BENCH_TIMEOUT)
  --no-floor            skip the Temporal floor phases (env BENCH_FLOOR=0)
  --temporal-in-memory  Temporal dev server in memory instead of on a SQLite file in the temp dir, as npm start
                        runs it (env BENCH_TEMPORAL_IN_MEMORY=1)
  --two-processes       the worker and the gateway as two processes (npm run worker, npm run gateway) instead of
                        the one process npm start runs (env BENCH_TWO_PROCESSES=1)
  --topology            npm run topology's hub: a Temporal server (not the dev server) with its history in shards on
                        MySQL/MariaDB, several workers and gateways; needs DATABASE_URL=mysql://… and wipes Temporal's
                        tables in TEMPORAL_DATABASE_URL (default: database temporal_bench beside DATABASE_URL's)
  --workers N, --gateways N, --shards N
                        its worker processes, gateway processes and history shards (default 2, 2, 4)
  --jws                 DFSPs sign, the hub validates and signs (JWS_VALIDATE, env BENCH_JWS=1)
  --soak MINUTES        load at the first concurrency for that long, memory of the worker and gateway sampled
                        every 30 s (env BENCH_SOAK)
  --profile DIR         CPU profiles of the worker and gateway into DIR, and the functions that took the most
                        (env BENCH_PROFILE)
  --flood RATE          measure each concurrency again while a third DFSP sends RATE GET /transfers/{random ID} a
                        second, and compare the payments' p99 and errors (env BENCH_FLOOD)
  --chart FILE          the concurrency chart (default bench-results/concurrency.svg, env BENCH_CHART)
  --verbose             show all output of the worker and gateway processes, not only warnings and errors`;

export function parseOptions(argv: string[], env: NodeJS.ProcessEnv): Options {
  const number = (name: string, raw: string | undefined, fallback: number, min: number): number => {
    if (raw === undefined || raw === '') return fallback;
    const value = Number(raw);
    if (!Number.isFinite(value) || value < min) throw new Error(`${name} must be a number >= ${min}, got "${raw}"\n${USAGE}`);
    return value;
  };
  const flag = (raw: string | undefined, fallback: boolean) => (raw === undefined || raw === '' ? fallback : !/^(0|false|no|off)$/i.test(raw));
  const values: Record<string, string | undefined> = {
    mode: env.BENCH_MODE,
    'bulk-size': env.BENCH_BULK_SIZE,
    'settlement-transfers': env.BENCH_SETTLEMENT_TRANSFERS,
    concurrency: env.BENCH_CONCURRENCY,
    duration: env.BENCH_DURATION,
    warmup: env.BENCH_WARMUP,
    timeout: env.BENCH_TIMEOUT,
    soak: env.BENCH_SOAK,
    chart: env.BENCH_CHART,
    profile: env.BENCH_PROFILE,
    flood: env.BENCH_FLOOD,
  };
  let floor = flag(env.BENCH_FLOOR, true);
  let temporalInMemory = flag(env.BENCH_TEMPORAL_IN_MEMORY, false);
  let jws = flag(env.BENCH_JWS, false);
  let twoProcesses = flag(env.BENCH_TWO_PROCESSES, false);
  let verbose = false;
  let seedDirect = false;
  let topology: Topology | undefined;
  const topologyValues: Partial<Record<'workers' | 'gateways' | 'shards', string>> = {};
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--help' || arg === '-h') {
      process.stdout.write(`${USAGE}\n`);
      process.exit(0);
    }
    if (arg === '--no-floor') floor = false;
    else if (arg === '--floor') floor = true;
    else if (arg === '--temporal-in-memory') temporalInMemory = true;
    else if (arg === '--jws') jws = true;
    else if (arg === '--two-processes') twoProcesses = true;
    else if (arg === '--topology') topology = { workers: 2, gateways: 2, historyShards: 4 };
    else if (arg === '--verbose') verbose = true;
    else if (arg === '--seed-direct') seedDirect = true;
    else {
      const match =
        /^--(mode|concurrency|duration|warmup|timeout|soak|chart|profile|workers|gateways|shards|bulk-size|flood|settlement-transfers|participants)(?:=(.*))?$/.exec(
          arg,
        );
      if (!match) throw new Error(`unknown argument "${arg}"\n${USAGE}`);
      const value = match[2] ?? argv[++i];
      if (value === undefined) throw new Error(`--${match[1]} needs a value\n${USAGE}`);
      if (match[1] === 'workers' || match[1] === 'gateways' || match[1] === 'shards') topologyValues[match[1]] = value;
      else values[match[1]] = value;
    }
  }
  if (Object.keys(topologyValues).length && !topology) throw new Error(`--workers, --gateways and --shards go with --topology\n${USAGE}`);
  if (topology) {
    topology = {
      workers: Math.floor(number('workers', topologyValues.workers, 2, 1)),
      gateways: Math.floor(number('gateways', topologyValues.gateways, 2, 1)),
      historyShards: Math.floor(number('shards', topologyValues.shards, 4, 1)),
    };
  }
  const mode = values.mode ?? 'payments';
  if (!['payments', 'transfers', 'bulk', 'thirdparty', 'settlement'].includes(mode))
    throw new Error(`--mode must be payments, transfers, bulk, thirdparty or settlement, got "${mode}"\n${USAGE}`);
  if (mode === 'thirdparty' && jws) throw new Error(`--jws is not supported with --mode thirdparty yet\n${USAGE}`);
  const bulkSize = Math.floor(number('bulk-size', values['bulk-size'], 1000, 1));
  if (bulkSize > 1000) throw new Error(`--bulk-size must be at most 1000 (FSPIOP's limit), got ${bulkSize}\n${USAGE}`);
  if (seedDirect && mode !== 'settlement') throw new Error(`--seed-direct goes with --mode settlement\n${USAGE}`);
  const levels = (values.concurrency ?? '10').split(',').map((level) => Math.floor(number('concurrency', level.trim(), 10, 1)));
  return {
    mode: mode as Mode,
    bulkSize,
    settlementTransfers: Math.floor(number('settlement-transfers', values['settlement-transfers'], 10_000, 1)),
    seedDirect,
    participants: Math.floor(number('participants', values.participants, 50, 2)),
    levels,
    durationS: number('duration', values.duration, 20, 1),
    warmupS: number('warmup', values.warmup, 3, 0),
    timeoutMs: number('timeout', values.timeout, 30, 1) * 1000,
    floor,
    temporalInMemory,
    jws,
    twoProcesses,
    topology,
    soakMinutes: values.soak === undefined ? undefined : number('soak', values.soak, 10, 0.5),
    chart: values.chart || 'bench-results/concurrency.svg',
    profile: values.profile || undefined,
    flood: Math.floor(number('flood', values.flood, 0, 0)),
    verbose,
  };
}
