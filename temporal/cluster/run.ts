import { spawn } from 'node:child_process';

/** Runs a command to completion; its output is kept only for the error when it fails. */
export function runQuietly(what: string, command: string, args: string[], env: NodeJS.ProcessEnv = process.env): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    for (const stream of [child.stdout, child.stderr]) {
      stream.setEncoding('utf8');
      stream.on('data', (chunk: string) => (output = (output + chunk).slice(-4_000)));
    }
    child.once('error', reject);
    child.once('exit', (code, signal) => (code === 0 ? resolve() : reject(new Error(`${what} exited with ${signal ?? code}:\n${output}`))));
  });
}
