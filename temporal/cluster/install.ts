import fs from 'node:fs';
import path from 'node:path';
import { repoRoot } from '../../activities/shared/platform/config';
import { goBinary } from '../setup';
import { runQuietly } from './run';

type Log = (message: string) => void;

/**
 * The Temporal server release the cluster runs: the one the pinned CLI (temporal/cli.mjs) embeds in its dev server, so
 * both paths run the same server code and its Go modules are already in the module cache after the CLI build.
 */
export const TEMPORAL_SERVER_VERSION = '1.29.1';

export interface ServerBinaries {
  /** `temporal-server`: frontend, history, matching and worker services. */
  server: string;
  /** `temporal-sql-tool`: creates and migrates the MySQL schema (the schema files are embedded in it). */
  sqlTool: string;
}

/**
 * The Temporal server and its SQL tool, built from source with Go into .temporal/server-v<version>/ on first use
 * (about two minutes after the CLI build). TEMPORAL_SERVER_BIN and TEMPORAL_SQL_TOOL point at binaries installed
 * some other way, such as the official release archive.
 */
export async function temporalServerBinaries(log: Log): Promise<ServerBinaries> {
  const given = { server: process.env.TEMPORAL_SERVER_BIN, sqlTool: process.env.TEMPORAL_SQL_TOOL };
  if (given.server && given.sqlTool) return given as ServerBinaries;
  const dir = path.join(repoRoot, '.temporal', `server-v${TEMPORAL_SERVER_VERSION}`);
  // `go install` names each binary after its package directory.
  const built = { server: path.join(dir, 'server'), sqlTool: path.join(dir, 'sql') };
  if (fs.existsSync(built.server) && fs.existsSync(built.sqlTool)) return built;

  const go = await goBinary();
  if (!go) throw new Error('building the Temporal server needs Go (https://go.dev/dl); or set TEMPORAL_SERVER_BIN and TEMPORAL_SQL_TOOL');
  // Built into a scratch directory and renamed, so an interrupted build never leaves half a pair behind.
  const scratch = `${dir}.partial-${process.pid}`;
  fs.mkdirSync(scratch, { recursive: true });
  log(`temporal server: building v${TEMPORAL_SERVER_VERSION} and its SQL tool with Go (one-time, a few minutes)`);
  const started = Date.now();
  const packages = ['cmd/server', 'cmd/tools/sql'].map((pkg) => `go.temporal.io/server/${pkg}@v${TEMPORAL_SERVER_VERSION}`);
  await runQuietly('go install', go, ['install', '-ldflags=-s -w', ...packages], { ...process.env, GOBIN: scratch, CGO_ENABLED: '0' });
  fs.rmSync(dir, { recursive: true, force: true });
  fs.renameSync(scratch, dir);
  log(`temporal server: built in ${((Date.now() - started) / 1000).toFixed(0)} s`);
  return built;
}
