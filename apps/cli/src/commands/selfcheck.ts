import {
  gistMetrics,
  repoTaskMetrics,
  type FamilyOutcome,
  type GistOutcome,
  type RepoTaskOutcome,
} from '@gitbench/core';
import { selfcheckSuite, type FixtureSelfcheck } from '@gitbench/engine';
import { intFlag, type ParsedArgs } from '../args';
import { formatFixtureError, loadSuite } from '../load-suite';
import { selectionFromArgs, selectOrRefuse } from '../fixture-selection';
import { createProgress } from '../progress';
import { EXIT } from '../exit';
import { driverFromArgs } from '../sandbox-driver';

/**
 * `gitbench selfcheck <dir> [--runs N] [--id domain/id ...] [--json] [--workers N] [--sandbox docker|local]`:
 * every fixture's expected answer passes, every negative fails, and the input hash is the same in every run.
 * `--id`, `--domain`, `--difficulty` and `--tag` check only the fixtures they select, as in `gitbench run`;
 * a file that does not load is reported only when nothing narrows the check.
 */
export async function selfcheckCommand(args: ParsedArgs): Promise<number> {
  const dir = args.positionals[0]!;
  const runs = intFlag(args, 'runs', 1);
  const workers = intFlag(args, 'workers', 2);
  const selection = selectionFromArgs(args);
  const suite = await loadSuite(dir);
  const fixtures = selectOrRefuse(selection, suite);
  // A file that does not load has no id to select it by: a narrowed check leaves it to the full one and to validate.
  const narrowed = Object.values(selection).some((list) => list.length > 0);
  const errors = narrowed ? [] : suite.errors;
  if (narrowed && suite.errors.length > 0)
    process.stderr.write(
      `${new Set(suite.errors.map((e) => e.file)).size} file(s) ` +
        `of ${suite.dir} do not load (gitbench validate lists them)\n`,
    );
  for (const e of errors) process.stderr.write(`invalid: ${formatFixtureError(e)}\n`);
  const driver = await driverFromArgs(args, workers);
  const progress = createProgress('selfcheck');
  try {
    const summary = await selfcheckSuite(fixtures, driver, {
      runs,
      workers,
      onProgress: (done, total, last) => progress.update(done, total, `${last.benchmark}/${last.id} ${last.status}`),
    });
    progress.done();
    const invalid = errors.length;
    if (args.flags.has('json')) {
      const out = {
        total: summary.total + invalid,
        passed: summary.passed,
        failed: summary.failed,
        skipped: summary.skipped,
        errors: summary.errors + invalid,
        runs,
        negativesChecked: summary.negativesChecked,
        alternativesChecked: summary.alternativesChecked,
        stableHashes: summary.stableHashes,
        invalidFiles: errors,
        fixtures: summary.fixtures,
      };
      process.stdout.write(`${JSON.stringify(out, null, 2)}\n`);
    } else {
      for (const f of summary.fixtures) {
        const hash = f.inputHash ? f.inputHash.slice(0, 12) : '-'.repeat(12);
        const stable = new Set(f.inputHashes).size <= 1 ? '' : ' (HASH UNSTABLE)';
        const derived = f.derivedExpected?.ok ? '  expected answer derived by self_check' : '';
        process.stdout.write(
          `${f.status.padEnd(7)} ${`${f.benchmark}/${f.id}`.padEnd(28)} ${hash}${stable}` +
            `${familyNote(f.reference?.family)}${f.reason ? `  ${f.reason}` : derived}\n`,
        );
      }
      process.stdout.write(
        `\n${summary.total} fixture(s), ${runs} run(s) each: ${summary.passed} passed, ${summary.failed} ` +
          `failed, ${summary.skipped} skipped, ${summary.errors + invalid} error(s)\n` +
          `${summary.negativesChecked} negative(s) and ${summary.alternativesChecked} alternative(s) scored; ` +
          `${summary.stableHashes} fixture(s) built with one input hash in all ${runs} run(s)\n`,
      );
      for (const line of familyLines(summary.fixtures)) process.stdout.write(`${line}\n`);
    }
    return summary.failed === 0 && summary.errors === 0 && invalid === 0 ? EXIT.ok : EXIT.failed;
  } finally {
    progress.done();
    await driver.close();
  }
}

const pct = (v: number | null) => (v === null ? '—' : `${(v * 100).toFixed(1)}%`);

/** The reference's own family figures, beside its line. */
function familyNote(family: FamilyOutcome | undefined): string {
  if (family?.family === 'gist')
    return `  line existence ${pct(family.lineExistenceRate)}, line execution ${pct(family.lineExecutionRate)}`;
  if (family?.family === 'repo_task') return `  quality ${family.quality}`;
  if (family?.family === 'ggb') {
    const verdicts = family.judge?.verdicts.map((v) => v.result).join('/');
    const tied =
      family.solved === false && family.judge?.verdicts.every((v) => v.agentWon || v.result === 'TIE') === true;
    const state =
      family.solved === true ? 'solved' : family.solved === null ? 'unscored' : tied ? 'tied' : 'not solved';
    return `  ${family.scenario} ${state}${verdicts ? ` (judge ${verdicts})` : ''}`;
  }
  return '';
}

/** The task families' own figures for the references and the negatives, as the papers count them. */
export function familyLines(fixtures: readonly FixtureSelfcheck[]): string[] {
  const lines: string[] = [];
  const pick = <F extends FamilyOutcome['family']>(family: F) => {
    type O = Extract<FamilyOutcome, { family: F }>;
    const of = (list: { family?: FamilyOutcome }[]) =>
      list.flatMap((v, i) =>
        v.family?.family === family ? [{ fixture: String(i), outcome: v.family as O, costUsd: 0 }] : [],
      );
    return {
      references: of(fixtures.flatMap((f) => (f.reference ? [f.reference] : []))),
      negatives: of(fixtures.flatMap((f) => f.negatives)),
    };
  };
  const tasks = pick('repo_task');
  if (tasks.references.length > 0) {
    const r = repoTaskMetrics(tasks.references as { fixture: string; outcome: RepoTaskOutcome; costUsd: number }[]);
    const n = repoTaskMetrics(tasks.negatives as { fixture: string; outcome: RepoTaskOutcome; costUsd: number }[]);
    lines.push(
      `repository tasks: references Process ${r.ecr.numerator}/${r.ecr.denominator}, ` +
        `Result ${r.tpr.numerator}/${r.tpr.denominator}; ` +
        `negatives Process ${n.ecr.numerator}/${n.ecr.denominator}, Result ${n.tpr.numerator}/${n.tpr.denominator}`,
    );
  }
  const gists = pick('gist');
  if (gists.references.length > 0) {
    const r = gistMetrics(gists.references as { fixture: string; outcome: GistOutcome; costUsd: number }[]);
    const n = gistMetrics(gists.negatives as { fixture: string; outcome: GistOutcome; costUsd: number }[]);
    lines.push(
      `gists: references fidelity ${r.fidelity.numerator}/${r.fidelity.denominator}, ` +
        `line existence ${pct(r.lineExistence.value)} (mean of ${r.lineExistence.n}), ` +
        `line execution ${pct(r.lineExecution.value)} (mean of ${r.lineExecution.n}); ` +
        `negatives fidelity ${n.fidelity.numerator}/${n.fidelity.denominator}`,
    );
  }
  const ggb = pick('ggb');
  if (ggb.references.length > 0) {
    const per = (
      list: {
        outcome: {
          scenario: string;
          solved: boolean | null;
          judge?: { verdicts: { agentWon: boolean; result: string }[] };
        };
      }[],
      scenario: string,
    ) => {
      const of = list.filter((x) => x.outcome.scenario === scenario);
      const solved = of.filter((x) => x.outcome.solved === true).length;
      const tied = of.filter(
        (x) =>
          x.outcome.solved !== true &&
          x.outcome.judge?.verdicts.every((v) => v.agentWon || v.result === 'TIE') === true,
      ).length;
      return `${scenario.toUpperCase()} ${solved}/${of.length} solved${tied > 0 ? `, ${tied} tied` : ''}`;
    };
    const refs = ggb.references as { outcome: { scenario: string; solved: boolean | null } }[];
    const negs = ggb.negatives as { outcome: { scenario: string; solved: boolean | null } }[];
    lines.push(
      `GitGoodBench: references ${['mcr', 'ir', 'icc'].map((s) => per(refs, s)).join('; ')}; ` +
        `negatives ${['mcr', 'ir', 'icc'].map((s) => per(negs, s)).join('; ')} ` +
        `(references must solve or tie, negatives must not solve)`,
    );
  }
  return lines;
}
