/**
 * Python that runs in a sandbox lives in .py files, linted and tested as Python (scripts/python-check.sh),
 * but packages/core, which builds the commands that run it, reads no files at run time (the web app
 * bundles it): each such .py file has a generated TypeScript module beside it that holds its text.
 * The .py file is the source; scripts/test/python-modules.test.ts fails when a module is stale.
 *
 * What a file holds above its SENT_FROM line is not sent: the comment that documents it, and where the
 * text runs with names its runner defines, the definitions that let it be linted and run on its own. The
 * text sent reaches the sandbox inside commands, and whatever hashes them: the line keeps that text as it
 * was when it moved out of a TypeScript string.
 */
import path from 'node:path';

export interface PythonModule {
  /** The .py file, from the repository's root. */
  source: string;
  /** The generated .ts file, from the repository's root. */
  module: string;
  /** The name the module exports the text under. */
  name: string;
}

export const PYTHON_MODULES: readonly PythonModule[] = [
  {
    source: 'packages/core/src/families/gist/evaluator.py',
    module: 'packages/core/src/families/gist/evaluator-py.generated.ts',
    name: 'GIST_EVALUATOR_PY',
  },
  {
    source: 'packages/core/src/families/repo-task/grader-runner.py',
    module: 'packages/core/src/families/repo-task/grader-runner-py.generated.ts',
    name: 'GRADER_RUNNER_PY',
  },
  {
    source: 'packages/core/src/families/repo-task/outputs-listing.py',
    module: 'packages/core/src/families/repo-task/outputs-listing-py.generated.ts',
    name: 'OUTPUTS_LISTING_PY',
  },
  {
    source: 'packages/core/src/families/repo-checks/tests-run.py',
    module: 'packages/core/src/families/repo-checks/tests-run-py.generated.ts',
    name: 'TESTS_RUN_PY',
  },
  {
    source: 'packages/core/src/scoring/lookup-config.py',
    module: 'packages/core/src/scoring/lookup-config-py.generated.ts',
    name: 'LOOKUP_CONFIG_BODY',
  },
  {
    source: 'packages/core/src/fixtures/worktree-listing.py',
    module: 'packages/core/src/fixtures/worktree-listing-py.generated.ts',
    name: 'WORKTREE_LISTING_FILE',
  },
];

export const SENT_FROM = '# ---- sent from the next line on ----';

/** The text sent: what follows the SENT_FROM line. */
export function pythonText(source: string): string {
  const lines = source.split('\n');
  const at = lines.indexOf(SENT_FROM);
  if (at < 0) throw new Error(`no line ${JSON.stringify(SENT_FROM)} marks where the text sent starts`);
  return lines.slice(at + 1).join('\n');
}

/** The generated module: the text as one JSON string a line, joined, so a change shows as a line's diff. */
export function renderPythonModule(entry: PythonModule, source: string): string {
  const text = pythonText(source);
  const lines = text.split('\n').map((line) => `  ${JSON.stringify(line)},`);
  return [
    `// Generated from ${path.basename(entry.source)} by ` +
      `scripts/python-modules.ts (npm run python:generate): edit the .py file.`,
    `/** The text of ${path.basename(entry.source)} below its SENT_FROM line (what it does: the comment above it). */`,
    `export const ${entry.name} = [`,
    ...lines,
    `].join('\\n');`,
    '',
  ].join('\n');
}
