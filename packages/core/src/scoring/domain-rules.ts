import { UPSTREAM_DOMAINS } from '../fixtures/default-context';
import type { Fixture } from '../fixtures/types';

/**
 * Scoring rules that depend on the benchmark (domain) a fixture belongs to, as upstream GitBench's
 * benchmark modules apply them on top of its generic scorers.
 */

/** Upstream's branch_cleanup scores its exact_match fixtures as a set of branch names. */
export const LINE_SET_DOMAINS: readonly string[] = ['branch_cleanup'];

/**
 * Upstream's benchmarks that run the answer's commands in the repository before scoring. In its other
 * benchmarks state assertions are checked on the repository as set up, and only `model_output`
 * assertions see the answer.
 */
export const ANSWER_RUNNING_DOMAINS: readonly string[] = [
  'git_clean',
  'submodule_usage',
  'tag_management',
  'worktree_usage',
];

/**
 * Whether a state_assertions fixture's answer is run before its assertions are checked:
 * `scoring.execute_answer` when the fixture says, else upstream's rule for its benchmark. A domain
 * upstream does not have runs the answer, the only reading that lets its state assertions see it.
 */
export function runsAnswer(fixture: Pick<Fixture, 'domain' | 'scoring'>): boolean {
  const own = fixture.scoring.execute_answer;
  if (typeof own === 'boolean') return own;
  return ANSWER_RUNNING_DOMAINS.includes(fixture.domain) || !UPSTREAM_DOMAINS.includes(fixture.domain);
}

/** Whether the model's answer is run as commands in the repository (so the paths it names matter). */
export function answerIsRun(fixture: Pick<Fixture, 'domain' | 'scoring'>): boolean {
  return fixture.scoring.type === 'state_assertions' && runsAnswer(fixture);
}

/** Upstream's self-check for "the expected answer is a hash": `\b[0-9a-fA-F]{7,40}\b` over the whole answer. */
export const HASH_ANSWER = /^[0-9a-fA-F]{7,40}$/;
