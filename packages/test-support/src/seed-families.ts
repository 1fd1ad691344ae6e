import {
  ATTEMPT_EVIDENCE_VERSION,
  GIST_PROBE,
  GGB_SCORING_TYPES,
  GRADE_PROBE,
  gistResult,
  newId,
  OUTPUTS_PROBE,
  readGraderVerdict,
  repoTaskResult,
  VERDICT_MARK,
  type ExecRecord,
  type GgbOutcome,
  type GitbenchEvidence,
  type GistEvidence,
  type RepoTaskConfig,
  type ScoreResult,
} from '@gitbench/core';
import { insertCampaign, refreshCampaignStats, type Db, type Prisma } from '@gitbench/db';

/**
 * A finished campaign over the task families whose attempts carry evidence records shaped as the
 * worker writes them: the sandbox's probe records (the grader's verdict line, the outputs listing,
 * the gist evaluator's JSON) and the score core computes from them. For browser tests and demos of
 * the family pages and the attempt page's evidence views, without Docker or a model.
 */

const exec = (command: string, stdout: string, over: Partial<ExecRecord> = {}): ExecRecord => ({
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

const GIST_TEXT = `import re


class Pattern(object):

    def __eq__(self, other):
        return repr(self) == repr(other)

    def fix(self):
        """Fix elements."""
        self.fix_identities()
        return self


def parse_args(source):
    tokens = source.split()
    return tokens


def helper_not_in_original(x):
    return x * 2


def test_parse():
    assert parse_args('a b') == ['a', 'b']
`;

type Unit = NonNullable<NonNullable<GistEvidence['gist']>['units']>[number];
const unit = (from: number, to: number, block: string, text: string, kind: Unit['kind'] = 'code'): Unit => ({
  lines: [from, to],
  block,
  kind,
  texts: [text],
});

/**
 * The gist evaluator's facts for GIST_TEXT: ran, same outcome as the original; some lines not run, some not in the
 * original.
 */
export const SEED_GIST_EVIDENCE: GistEvidence = {
  version: 1,
  original: {
    ran: true,
    exit: 0,
    collected: 1,
    reports: [{ test: 'test_docopt.py::test_parse', when: 'call', outcome: 'passed' }],
  },
  gist: {
    path: 'gist.py',
    exists: true,
    bytes: GIST_TEXT.length,
    text: GIST_TEXT,
    units: [
      unit(1, 1, '', 'import re'),
      unit(4, 4, '', 'class Pattern(object):'),
      unit(6, 6, 'Pattern', 'def __eq__(self, other):'),
      unit(7, 7, 'Pattern.__eq__', 'return repr(self) == repr(other)'),
      unit(9, 9, 'Pattern', 'def fix(self):'),
      unit(10, 10, 'Pattern.fix', '"""Fix elements."""', 'nonexec'),
      unit(11, 11, 'Pattern.fix', 'self.fix_identities()'),
      unit(12, 12, 'Pattern.fix', 'return self'),
      unit(15, 15, '', 'def parse_args(source):'),
      unit(16, 16, 'parse_args', 'tokens = source.split()'),
      unit(17, 17, 'parse_args', 'return tokens'),
      unit(20, 20, '', 'def helper_not_in_original(x):'),
      unit(21, 21, 'helper_not_in_original', 'return x * 2'),
      unit(24, 24, '', 'def test_parse():'),
      unit(25, 25, 'test_parse', "assert parse_args('a b') == ['a', 'b']"),
    ],
    testsFound: ['test_parse'],
    testsMissing: [],
  },
  candidates: {
    Pattern: [{ file: 'docopt.py', found: ['def __eq__(self, other):', 'def fix(self):'] }],
    'Pattern.__eq__': [{ file: 'docopt.py', found: ['return repr(self) == repr(other)'] }],
    'Pattern.fix': [{ file: 'docopt.py', found: ['"""Fix elements."""', 'self.fix_identities()', 'return self'] }],
    parse_args: [{ file: 'docopt.py', found: ['tokens = source.split()'] }],
    test_parse: [{ file: 'test_docopt.py', found: ["assert parse_args('a b') == ['a', 'b']"] }],
  },
  topLevelFound: ['import re', 'class Pattern(object):', 'def parse_args(source):', 'def test_parse():'],
  run: {
    ran: true,
    exit: 0,
    collected: 1,
    reports: [{ test: 'gist.py::test_parse', when: 'call', outcome: 'passed' }],
  },
  fidelity: { ok: true, detail: 'the gist gives the original outcome (1 passed) and output' },
  execution: { units: null, executed: [1, 4, 6, 9, 15, 16, 17, 20, 24, 25] },
};

const commit = (sha: string, subject: string, files: string[], diff: string) => ({
  sha,
  subject,
  message: `${subject}\n`,
  files,
  diff,
});

const MCR_DIFF = `diff --git a/src/config.py b/src/config.py
index 3b18e51..9f2c1aa 100644
--- a/src/config.py
+++ b/src/config.py
@@ -10,7 +10,7 @@ class Config:
     def load(self, path):
-        with open(path, encoding="utf-8") as f:
+        with open(path) as f:
             return json.load(f)
`;

/** GitGoodBench outcomes as the ggb family writes them (the shape agreed in contract-changes.md). */
export const SEED_GGB_OUTCOMES: Record<'mcr' | 'ir' | 'icc', GgbOutcome> = {
  mcr: {
    family: 'ggb',
    scenario: 'mcr',
    success: true,
    solved: false,
    detail: 'the tree differs from the merge commit in 1 file',
    mcr: {
      mergeCommit: '4f1c2d9e8a7b6c5d4e3f2a1b0c9d8e7f6a5b4c3d',
      unmerged: [],
      diff: MCR_DIFF,
      diffTruncated: false,
    },
  },
  ir: {
    family: 'ggb',
    scenario: 'ir',
    success: true,
    solved: true,
    detail: "the judge preferred the agent's history in both orders",
    histories: {
      original: [
        commit(
          'a1b2c3d',
          'Add parser for ranges',
          ['src/ranges.py'],
          '+def parse_range(text):\n+    lo, hi = text.split("-")\n',
        ),
        commit(
          'b2c3d4e',
          'wip',
          ['src/ranges.py'],
          '-    lo, hi = text.split("-")\n+    lo, hi = text.split("-", 1)\n',
        ),
        commit('c3d4e5f', 'fix typo', ['src/ranges.py'], '-# rnage\n+# range\n'),
      ],
      agent: [
        commit(
          'd4e5f6a',
          'Add a range parser that splits on the first dash',
          ['src/ranges.py'],
          '+def parse_range(text):\n+    lo, hi = text.split("-", 1)\n',
        ),
      ],
      rebaseInProgress: false,
      targetFile: null,
    },
    judge: {
      status: 'scored',
      reason: null,
      verdicts: [
        {
          agentAs: 'HISTORY-1',
          result: 'HISTORY-1',
          reason:
            'History 1 squashes the work-in-progress and typo commits into one commit with a descriptive message.',
          agentWon: true,
        },
        {
          agentAs: 'HISTORY-2',
          result: 'HISTORY-2',
          reason: 'History 2 is one coherent commit; history 1 keeps "wip" and "fix typo".',
          agentWon: true,
        },
      ],
    },
  },
  icc: {
    family: 'ggb',
    scenario: 'icc',
    success: true,
    solved: null,
    detail: 'the judge failed: no verdict after 3 tries (unscored)',
    histories: {
      original: [
        commit('e5f6a7b', 'Handle empty input', ['src/ranges.py'], '+    if not text:\n+        return None\n'),
      ],
      agent: [commit('f6a7b8c', 'changes', ['src/ranges.py'], '+    if not text:\n+        return None\n')],
      rebaseInProgress: false,
      targetFile: 'src/ranges.py',
    },
    judge: { status: 'unscored', reason: 'the judge returned no structured verdict (3 tries)', verdicts: [] },
  },
};

interface SeedAttempt {
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

function seedAttempts(): SeedAttempt[] {
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
      units: [unit(1, 1, '', 'import docopt'), unit(3, 3, '', 'x = 1')],
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

function evidenceOf(s: SeedAttempt): GitbenchEvidence {
  const hashes = {
    input: 'sha256:seed',
    expectedInput: 'sha256:seed',
    definition: 'sha256:def',
    prompt: 'sha256:prompt',
    expected: 'sha256:exp',
    scorerConfig: 'sha256:cfg',
  };
  return {
    version: ATTEMPT_EVIDENCE_VERSION,
    origin: 'gitbench',
    mode: 'text',
    prompt: `Seeded ${s.scoringType} task ${s.domain}/${s.fixtureId}.`,
    output: s.output,
    expected: '',
    error: null,
    scoring: {
      scoringType: s.scoringType,
      outcome: s.score.passed ? 'PASS' : 'FAIL',
      passed: s.score.passed,
      score: s.score.score,
      checks: s.score.checks,
      scoredText: s.output,
      structuredError: null,
      hashes,
      timings: { totalMs: 2400, sandboxMs: 2100, scoreMs: 300 },
      family: s.score.family ?? null,
    },
    sandbox: {
      kind: 'docker',
      image: 'gitbench-sandbox:seed',
      imageId: 'sha256:seed',
      isolated: true,
      evidence: { answer: [exec(s.output || 'true', '')], probes: s.probes },
      durationMs: 2100,
    },
    calls: [],
    judge: null,
  };
}

/**
 * Seeds one completed campaign of the families with one attempt per label; returns its id and the attempts by label.
 */
export async function seedFamilyCampaign(
  db: Db,
  name = 'Task families (seeded)',
): Promise<{ campaignId: string; attempts: Record<string, string> }> {
  const seeds = seedAttempts();
  const campaignId = await insertCampaign(db, {
    name,
    createdBy: 'seed',
    config: { seeded: true },
    configHash: `seed-${name}`,
    seed: 1,
    suiteVersion: 'families-seed',
    trials: 1,
    targets: [
      {
        modelId: 'scripted-agent',
        baseModel: 'scripted-agent',
        reasoningEffort: null,
        outputMode: 'text',
        profile: 'scripted',
      },
    ],
    fixtures: seeds.map((s) => ({
      domain: s.domain,
      fixtureId: s.fixtureId,
      difficulty: s.difficulty,
      tags: [],
      scoringType: s.scoringType,
      definition: { id: s.fixtureId, prompt: `Seeded ${s.scoringType} task.` },
    })),
  });
  const c = await db.campaign.findUniqueOrThrow({
    where: { id: campaignId },
    include: { targets: true, fixtures: true },
  });
  const target = c.targets[0]!;
  const now = new Date();
  const attempts: Record<string, string> = {};
  for (const s of seeds) {
    const snapshot = c.fixtures.find((f) => f.domain === s.domain && f.fixtureId === s.fixtureId)!;
    const id = newId('attempt');
    attempts[s.label] = id;
    await db.attempt.create({
      data: {
        id,
        campaignId,
        targetId: target.id,
        fixtureSnapshotId: snapshot.id,
        trial: 1,
        modelId: target.modelId,
        outputMode: target.outputMode,
        domain: s.domain,
        fixtureId: s.fixtureId,
        difficulty: s.difficulty,
        status: s.score.passed ? 'VALID_PASS' : 'VALID_FAIL',
        passed: s.score.passed,
        score: s.score.score,
        tryCount: 1,
        startedAt: now,
        finishedAt: now,
        costUsd: s.costUsd,
        tries: {
          create: {
            id: newId('attemptTry'),
            tryNumber: 1,
            workerId: 'seed',
            status: s.score.passed ? 'VALID_PASS' : 'VALID_FAIL',
            startedAt: now,
            finishedAt: now,
            evidence: evidenceOf(s) as unknown as Prisma.InputJsonValue,
          },
        },
      },
    });
  }
  await db.campaign.update({
    where: { id: campaignId },
    data: { status: 'COMPLETED', startedAt: now, finishedAt: now },
  });
  await refreshCampaignStats(db, campaignId);
  return { campaignId, attempts };
}
