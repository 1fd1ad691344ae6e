import { familyScorer } from '../../families/family-scorer';
import { gistConfig } from '../../families/gist/config';
import { GIST_EVALUATOR_PY } from '../../families/gist/evaluator-py.generated';
import { gistResult } from '../../families/gist/outcome';
import { shellQuote } from '../../shell-quote';

export const GIST_PROBE = 'gist.evaluate';

/**
 * A gist (Gistify's method). A single answer is a bash script that writes the gist; an agent writes it
 * itself. Afterwards the evaluator runs the command on the original, as released, and on the gist, and
 * records what the three metrics need. passed = execution fidelity.
 */
export const gistScorer = familyScorer({
  type: 'gist',
  config: gistConfig,
  staging: 'gist',
  files: (config) => ({ 'original.tar.gz': config.originalAsset }),
  probes: (config, staged, dir) => {
    const task = {
      gist: config.gist,
      options: config.parsedCommand.options,
      test_file: config.parsedCommand.testFile,
      nodes: config.parsedCommand.nodes,
      pythonpath: config.pythonpath,
      timeout: config.timeout_seconds,
    };
    const evaluate = [
      `${staged.ready} || { echo 'the original repository could not be staged' >&2; exit 5; }`,
      `/usr/bin/python3 -I -c ${shellQuote(GIST_EVALUATOR_PY)} ${shellQuote(JSON.stringify(task))} ${dir}`,
    ].join('\n');
    return [{ id: GIST_PROBE, command: evaluate, timeoutMs: (2 * config.timeout_seconds + 60) * 1000 }];
  },
  decide: (_config, evidence) => gistResult(evidence?.probes[GIST_PROBE]),
});
