import { writeFile } from 'node:fs/promises';
import { mockModel, oracleModel, runSuite, toUpstreamEnvelope, type OutputMode } from '@gitbench/engine';
import { intFlag, onlyFlags, parseArgs, stringFlag, UsageError } from '../args';
import { formatFixtureError, loadSuite } from '../load-suite';
import { createProgress } from '../progress';
import { driverFromArgs, EXIT } from '../sandbox-driver';

const MODELS = { mock: mockModel, oracle: oracleModel } as const;

function modesOf(raw: string): OutputMode[] {
  if (raw === 'both') return ['text', 'json_schema'];
  if (raw === 'text' || raw === 'json_schema') return [raw];
  throw new UsageError(`--output-mode must be text, json_schema or both, got ${raw}`);
}

/** One file per output mode and trial, as upstream writes one envelope per run. */
function outputPath(base: string, mode: OutputMode, trial: number, modes: number, trials: number): string {
  const parts = [modes > 1 ? mode : '', trials > 1 ? `trial${trial}` : ''].filter(Boolean);
  if (parts.length === 0) return base;
  const dot = base.endsWith('.json') ? base.length - 5 : base.length;
  return `${base.slice(0, dot)}-${parts.join('-')}${base.slice(dot)}`;
}

/**
 * `gitbench run <dir> --model mock|oracle [--output-mode text|json_schema|both] [--trials N]
 * [--json-output FILE] [--workers N] [--sandbox docker|local]`: the embedded mode, no services.
 */
export async function runCommand(argv: string[]): Promise<number> {
  const args = parseArgs(argv, ['model', 'output-mode', 'trials', 'json-output', 'workers', 'sandbox']);
  onlyFlags(args, ['model', 'output-mode', 'trials', 'json-output', 'workers', 'sandbox', 'json']);
  const [dir] = args.positionals;
  const modelName = stringFlag(args, 'model');
  if (!dir || !modelName) throw new UsageError('usage: gitbench run <dir> --model mock|oracle [--output-mode text|json_schema|both] [--trials N] [--json-output FILE]');
  const model = MODELS[modelName as keyof typeof MODELS];
  if (!model) throw new UsageError(`--model must be mock or oracle in the embedded mode, got ${modelName}`);
  const modes = modesOf(stringFlag(args, 'output-mode') ?? 'text');
  const trials = intFlag(args, 'trials', 1);
  const workers = intFlag(args, 'workers', 2);
  const { fixtures, errors, manifest } = await loadSuite(dir);
  for (const e of errors) process.stderr.write(`invalid (skipped): ${formatFixtureError(e)}\n`);
  const driver = await driverFromArgs(args, workers);
  const progress = createProgress(`run ${modelName}`);
  const started = new Date();
  try {
    const entries = await runSuite(fixtures, driver, {
      model,
      modelName,
      outputModes: modes,
      trials,
      workers,
      onProgress: (d, t) => progress.update(d, t),
    });
    progress.done();
    const summaries: Record<string, unknown>[] = [];
    for (const mode of modes) {
      for (let trial = 1; trial <= trials; trial++) {
        const mine = entries.filter((e) => e.outputMode === mode && e.trial === trial);
        const ok = mine.filter((e): e is typeof e & { attempt: NonNullable<typeof e.attempt>; response: NonNullable<typeof e.response> } => e.attempt !== null && e.response !== null);
        const envelope = toUpstreamEnvelope(
          { model: modelName, outputMode: mode, timestamp: started.toISOString(), suiteVersion: manifest?.version ?? 'unversioned', gitSha: null, profile: 'embedded' },
          ok.map((e) => ({ fixture: e.fixture, attempt: e.attempt, response: e.response, durationMs: e.durationMs })),
        );
        const outcomes: Record<string, number> = {};
        for (const e of ok) outcomes[e.attempt.outcome] = (outcomes[e.attempt.outcome] ?? 0) + 1;
        const failedToRun = mine.filter((e) => e.attempt === null).map((e) => ({ fixture: `${e.fixture.domain}/${e.fixture.id}`, error: e.error }));
        const summary: Record<string, unknown> = { outputMode: mode, trial, attempts: mine.length, outcomes, notRun: failedToRun, ...(envelope.summary as object) };
        summaries.push(summary);
        const file = stringFlag(args, 'json-output');
        if (file) {
          const path = outputPath(file, mode, trial, modes.length, trials);
          await writeFile(path, `${JSON.stringify(envelope, null, 2)}\n`);
          summary.file = path;
        }
      }
    }
    if (args.flags.has('json')) process.stdout.write(`${JSON.stringify(summaries, null, 2)}\n`);
    else {
      for (const s of summaries as { outputMode: string; trial: number; attempts: number; outcomes: Record<string, number>; notRun: { fixture: string; error?: string }[]; file?: string }[]) {
        const counts = Object.entries(s.outcomes).map(([k, v]) => `${k} ${v}`).join(', ');
        process.stdout.write(`${s.outputMode} trial ${s.trial}: ${s.attempts} attempt(s): ${counts}${s.file ? ` → ${s.file}` : ''}\n`);
        for (const n of s.notRun) process.stdout.write(`  not run: ${n.fixture}: ${n.error}\n`);
      }
    }
    const infra = entries.some((e) => e.attempt === null || e.attempt.outcome === 'SANDBOX_ERROR' || e.attempt.outcome === 'HASH_MISMATCH');
    return infra ? EXIT.infrastructure : EXIT.ok;
  } finally {
    progress.done();
    await driver.close();
  }
}
