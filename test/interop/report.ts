/** The suite's report: a line per check on stdout, progress on stderr, and the totals it ends with. */

export const say = (message: string) => process.stdout.write(`${message}\n`);
export const log = (message: string) => process.stderr.write(`${message}\n`);

export const totals = { passed: 0, failed: 0 };

/** Prints the check's line (with `detail` when it failed) and counts it; whether it passed. */
export function check(what: string, ok: boolean, detail?: unknown): boolean {
  if (ok) totals.passed++;
  else totals.failed++;
  say(`${ok ? 'ok  ' : 'FAIL'} ${what}${ok || detail === undefined ? '' : ` — ${typeof detail === 'string' ? detail : JSON.stringify(detail)}`}`);
  return ok;
}
