import fc from 'fast-check';
import { pollUntil } from '../helpers/polling';
import { caseOf, prepare, type Expectation, type PreparedCase } from './cases';
import { operationsOf, type Api } from './documents';
import type { FuzzScheme } from './fixture';
import { unexplained } from './knownDefects';
import { problemWith } from './oracle';
import type { SchemeKeys } from './schemeKeys';
import { signatureCaseOf } from './signatureAttacks';
import { prepareSigned, type SignedCase } from './signatureCases';
import { sendOnWire } from './wire';

export interface CampaignReport {
  sent: number;
  byExpectation: Partial<Record<Expectation, number>>;
  byStatus: Record<string, number>;
  /** What went wrong, one line per kind of problem and operation, with how often and one case that shows it. */
  problems: string[];
  /** Cases a known defect explains, by defect. */
  known: Record<string, number>;
  /** Error callbacks owed to strangers, and those that did not come. */
  owed: number;
  missing: string[];
}

/** Sends `runs` cases of the API, generated from `seed` (see sendCases). */
export async function runCampaign(
  scheme: FuzzScheme,
  api: Api,
  { seed, runs }: { seed: number; runs: number },
): Promise<{ report: CampaignReport; cases: PreparedCase[] }> {
  const cases = fc.sample(
    caseOf(operationsOf(api))
      .map((fuzzCase) => prepare(fuzzCase, scheme))
      .filter((prepared): prepared is PreparedCase => prepared !== undefined),
    { seed, numRuns: runs },
  );
  return { report: await sendCases(scheme, api === 'admin' ? scheme.hub.admin.url : scheme.hub.url, cases), cases };
}

/**
 * Sends `runs` FSPIOP and third-party messages with bodies, generated from `seed`, whose signatures do not hold, to a
 * switch validating the senders' signatures with `keys`.
 */
export async function runSignatureCampaign(
  scheme: FuzzScheme,
  keys: SchemeKeys,
  { seed, runs }: { seed: number; runs: number },
): Promise<{ report: CampaignReport; cases: SignedCase[] }> {
  const operations = [...operationsOf('fspiop'), ...operationsOf('thirdparty')];
  const specs = fc.sample(signatureCaseOf(operations), { seed, numRuns: runs });
  const cases = await Promise.all(specs.map((spec) => prepareSigned(spec, scheme, keys, operations)));
  return { report: await sendCases(scheme, scheme.hub.url, cases), cases };
}

/**
 * Sends the cases to the gateway at `url`, a few at a time; checks each answer as it comes; then waits for the error
 * callbacks owed to strangers, all together.
 */
export async function sendCases(
  scheme: FuzzScheme,
  url: string,
  cases: PreparedCase[],
  { concurrency = 6, callbackWaitMs = 60_000 }: { concurrency?: number; callbackWaitMs?: number } = {},
): Promise<CampaignReport> {
  const report: CampaignReport = { sent: 0, byExpectation: {}, byStatus: {}, problems: [], known: {}, owed: 0, missing: [] };
  const problems = new Map<string, { cases: number; example: string }>();
  const owed = new Map<string, { to: PreparedCase['owed'] & object; count: number; example: string }>();

  const check = async (prepared: PreparedCase) => {
    const answer = await sendOnWire(url, prepared.request()).catch((error: Error) => error);
    report.sent += 1;
    report.byExpectation[prepared.expectation] = (report.byExpectation[prepared.expectation] ?? 0) + 1;
    const status = answer instanceof Error ? 'none' : String(answer.status);
    report.byStatus[status] = (report.byStatus[status] ?? 0) + 1;
    const problem = problemWith(answer, prepared.expectation, prepared.refusal);
    // One line per kind of problem and operation: the problem, the API, the method and the path.
    const finding = problem && `${problem.slice(0, 80)} — ${prepared.description.split(' ').slice(0, 3).join(' ')}`;
    if (finding) {
      if (unexplained([finding], report.known).length === 0) return;
      const seen = problems.get(finding) ?? { cases: 0, example: `${prepared.description}; malformed: ${prepared.malformed.join(', ') || 'no'}` };
      problems.set(finding, { ...seen, cases: seen.cases + 1 });
    } else if (prepared.owed && !(answer instanceof Error) && answer.status < 300) {
      const key = `${prepared.owed.to.name} PUT ${prepared.owed.path}`;
      owed.set(key, { to: prepared.owed, count: (owed.get(key)?.count ?? 0) + 1, example: owed.get(key)?.example ?? prepared.description });
    }
  };
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < cases.length) await check(cases[next++]);
    }),
  );
  report.problems = [...problems].map(([key, { cases: count, example }]) => `${key} (${count}×), e.g. ${example}`);

  report.owed = [...owed.values()].reduce((sum, { count }) => sum + count, 0);
  const unmet = () =>
    Promise.resolve(
      [...owed].flatMap(([key, { to, count, example }]) => {
        const got = to.to.received.filter((r) => r.method === 'PUT' && r.path === to.path).length;
        return got < count ? [`${key}: ${count} owed, ${got} came, e.g. for ${example}`] : [];
      }),
    );
  report.missing = await pollUntil(unmet, (left) => left.length === 0, callbackWaitMs);
  return report;
}
