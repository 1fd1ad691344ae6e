import {
  GIST_PROBE,
  GGB_SCORING_TYPES,
  GRADE_PROBE,
  gistResult,
  OUTPUTS_PROBE,
  readGraderVerdict,
  repoTaskResult,
  VERDICT_MARK,
  type ExecRecord,
  type GgbOutcome,
  type GistEvidence,
  type RepoTaskConfig,
  type ScoreResult,
} from '@gitbench/core';
import { SEED_GGB_OUTCOMES } from './seed-ggb-outcomes';
import { gistUnit, SEED_GIST_EVIDENCE } from './seed-gist-evidence';

/** A sandbox command's record as the worker stores it. */
export const exec = (command: string, stdout: string, over: Partial<ExecRecord> = {}): ExecRecord => ({
  command,
  exitCode: 0,
  stdout,
  stderr: '',
  timedOut: false,
  truncated: false,
  durationMs: 420,
  ...over,
});

const verdictLine = (v: { Process: boolean; Result: boolean; comments: string; quality: number; kind: string }) =>
  `${VERDICT_MARK}${JSON.stringify(v)}`;

/** An 8×8 greyscale gradient, a real PNG. */
const PNG_BASE64 =
  'iVBORw0KGgoAAAANSUhEUgAAAAgAAAAICAAAAADhZOFXAAAAFElEQVR4nGNgUHBIaFhw4AEDZQwAxnUcAVpktvoAAAAASUVORK5CYII=';

/** One seeded attempt: the fixture it ran, its score and the probe records the score was computed from. */
export interface SeedAttempt {
  label: string;
  domain: string;
  fixtureId: string;
  difficulty: string;
  scoringType: string;
  score: ScoreResult;
  probes: Record<string, ExecRecord>;
  output: string;
  costUsd: number | null;
}

const repoConfig = { market_value_usd: 5 } as RepoTaskConfig;
function repoTask(
  label: string,
  fixtureId: string,
  domain: string,
  grade: ExecRecord,
  outputs: ExecRecord,
  costUsd: number | null,
): SeedAttempt {
  const score = repoTaskResult(repoConfig, readGraderVerdict(grade));
  return {
    label,
    domain,
    fixtureId,
    difficulty: 'medium',
    scoringType: 'repo_task',
    score,
    probes: { [GRADE_PROBE]: grade, [OUTPUTS_PROBE]: outputs },
    output: 'mkdir -p output && python3 convert.py',
    costUsd,
  };
}

function ggb(label: string, fixtureId: string, difficulty: string, outcome: GgbOutcome): SeedAttempt {
  const passed = outcome.solved === true;
  const score: ScoreResult = {
    passed,
    score: passed ? 1 : 0,
    checks: [{ check: 'solved', ok: passed, detail: outcome.detail }],
    family: outcome,
  };
  return {
    label,
    domain: `ggb-${outcome.scenario}`,
    fixtureId,
    difficulty,
    scoringType: GGB_SCORING_TYPES[outcome.scenario],
    score,
    probes: {},
    output: '',
    costUsd: 0.004,
  };
}

/** The attempts of the seeded campaign: repository tasks, gists and GitGoodBench scenarios, passed and failed. */
export function seedAttempts(): SeedAttempt[] {
  const grade = (v: Parameters<typeof verdictLine>[0]) => exec('grade.run', `grader: comparing\n${verdictLine(v)}\n`);
  const listing = (files: unknown[]) => exec('grade.outputs', JSON.stringify({ files }));
  const gistRecord = exec('gist.evaluate', `${JSON.stringify(SEED_GIST_EVIDENCE)}\n`);
  const missingTest: GistEvidence = {
    version: 1,
    original: SEED_GIST_EVIDENCE.original!,
    gist: {
      path: 'gist.py',
      exists: true,
      bytes: 20,
      text: 'import docopt\n\nx = 1\n',
      units: [gistUnit(1, 1, '', 'import docopt'), gistUnit(3, 3, '', 'x = 1')],
      testsFound: [],
      testsMissing: ['test_pattern_flat'],
    },
    candidates: {},
    topLevelFound: [],
  };
  return [
    repoTask(
      'repo-pass',
      't01',
      'image',
      grade({
        Process: true,
        Result: true,
        comments: 'mean absolute difference 0.31 (threshold 0.6); 8-bit greyscale as asked',
        quality: 1,
        kind: 'graded',
      }),
      listing([
        {
          path: 'output/photo_grey.png',
          bytes: 77,
          sha256: 'c0ffee'.padEnd(64, '0'),
          mime: 'image/png',
          base64: PNG_BASE64,
        },
        { path: 'output/notes.txt', bytes: 23, sha256: 'beef'.padEnd(64, '0'), text: 'converted 1 image, 8x8\n' },
      ]),
      0.021,
    ),
    repoTask(
      'repo-fail',
      't09',
      'text',
      grade({
        Process: true,
        Result: false,
        comments: 'found 12 of 15 expected headings; missing: Usage, Licence, Changes',
        quality: 0.25,
        kind: 'graded',
      }),
      listing([
        {
          path: 'output/toc.md',
          bytes: 41,
          sha256: 'abcd'.padEnd(64, '0'),
          text: '# Contents\n- Introduction\n- Installation\n',
        },
      ]),
      0.034,
    ),
    repoTask(
      'repo-timeout',
      't12',
      'data',
      exec('grade.run', '', {
        exitCode: 124,
        timedOut: true,
        stderr: 'grader: still reading output/summary.csv',
        durationMs: 60_000,
      }),
      listing([]),
      null,
    ),
    {
      label: 'gist-pass',
      domain: 'docopt',
      fixtureId: 'g01',
      difficulty: 'easy',
      scoringType: 'gist',
      score: gistResult(gistRecord),
      probes: { [GIST_PROBE]: gistRecord },
      output: "cat > gist.py <<'EOF'\n…\nEOF",
      costUsd: 0.012,
    },
    (() => {
      const record = exec('gist.evaluate', `${JSON.stringify(missingTest)}\n`);
      return {
        label: 'gist-fail',
        domain: 'docopt',
        fixtureId: 'g02',
        difficulty: 'easy',
        scoringType: 'gist',
        score: gistResult(record),
        probes: { [GIST_PROBE]: record },
        output: 'echo x',
        costUsd: 0.009,
      };
    })(),
    ggb('mcr', 'mcr-001', 'easy', SEED_GGB_OUTCOMES.mcr),
    ggb('ir', 'ir-001', 'medium', SEED_GGB_OUTCOMES.ir),
    ggb('icc', 'icc-001', 'easy', SEED_GGB_OUTCOMES.icc),
  ];
}
