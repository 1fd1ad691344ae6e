import { familyScorer } from '../../families/family-scorer';
import { repoTaskConfig } from '../../families/repo-task/config';
import { GRADER_RUNNER_PY } from '../../families/repo-task/grader-runner-py.generated';
import { OUTPUTS_LISTING_PY } from '../../families/repo-task/outputs-listing-py.generated';
import { OUTPUT_PREVIEW_BYTES, VERDICT_MARK } from '../../families/repo-task/sandbox-scripts';
import { readGraderVerdict, repoTaskResult } from '../../families/repo-task/verdict';
import { shellQuote } from '../../shell-quote';

export const GRADE_PROBE = 'grade.run';
export const OUTPUTS_PROBE = 'grade.outputs';

/**
 * A repository task (GitTaskBench's method). A single answer is a bash script run from the
 * repository root; an agent works in the repository itself. Either way, afterwards the task's grader
 * is brought into the sandbox from the fixture's definition, run under a time limit from the
 * repository root, and its verdict `{Process, Result, comments}` decides: passed = Result.
 */
export const repoTaskScorer = familyScorer({
  type: 'repo_task',
  config: repoTaskConfig,
  staging: 'grade',
  files: (config) => ({
    'grader.py': config.graderAsset,
    ...Object.fromEntries(Object.entries(config.truthAssets).map(([name, asset]) => [`truth.${name}`, asset])),
  }),
  probes: (config, staged, dir) => {
    const task = { outputs: config.outputs, truth: Object.keys(config.truthAssets), params: config.params };
    const run = [
      `${staged.ready} || { echo 'the grader could not be staged' >&2; exit 5; }`,
      `timeout -k 5 ${config.timeout_seconds} /usr/bin/python3 -I ` +
        `-c ${shellQuote(GRADER_RUNNER_PY)} ${shellQuote(JSON.stringify(task))} ${shellQuote(VERDICT_MARK)} ${dir}`,
    ].join('\n');
    return [
      { id: GRADE_PROBE, command: run, timeoutMs: (config.timeout_seconds + 15) * 1000 },
      {
        id: OUTPUTS_PROBE,
        command:
          `/usr/bin/python3 -I ` +
          `-c ${shellQuote(OUTPUTS_LISTING_PY)} ${shellQuote(JSON.stringify(config.outputs))} ${OUTPUT_PREVIEW_BYTES}`,
      },
    ];
  },
  decide: (config, evidence) => repoTaskResult(config, readGraderVerdict(evidence?.probes[GRADE_PROBE])),
});
