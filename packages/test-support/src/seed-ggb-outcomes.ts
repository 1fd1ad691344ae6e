import type { GgbOutcome } from '@gitbench/core';

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
