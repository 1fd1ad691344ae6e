/**
 * Python that runs in a sandbox lives in .py files, linted and tested as Python (scripts/python-check.sh),
 * but packages/core, which builds the commands that run it, reads no files at run time (the web app
 * bundles it): each such .py file has a generated TypeScript module beside it that holds its text.
 * The .py file is the source; scripts/test/python-modules.test.ts fails when a module is stale.
 *
 * A file's leading comment documents it and is not sent: the text starts at its first line that is not a
 * comment. The text is what reaches the sandbox inside a probe's command, so this keeps the commands as
 * they were when the text moved out of a TypeScript string.
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
];

/** The text sent: the file without its leading comment lines. */
export function pythonText(source: string): string {
  const lines = source.split('\n');
  let first = 0;
  while (first < lines.length && lines[first]!.startsWith('#')) first++;
  return lines.slice(first).join('\n');
}

/** The generated module: the text as one JSON string a line, joined, so a change shows as a line's diff. */
export function renderPythonModule(entry: PythonModule, source: string): string {
  const text = pythonText(source);
  const lines = text.split('\n').map((line) => `  ${JSON.stringify(line)},`);
  return [
    `// Generated from ${path.basename(entry.source)} by scripts/python-modules.ts (npm run python:generate): edit the .py file.`,
    `/** The text of ${path.basename(entry.source)} without its leading comment, which says what it does. */`,
    `export const ${entry.name} = [`,
    ...lines,
    `].join('\\n');`,
    '',
  ].join('\n');
}
