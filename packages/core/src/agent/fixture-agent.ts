import type { Fixture } from '../fixtures/types';
import type { ScoringType } from '../scoring/types';
import { DEFAULT_TOOL_SET } from './agent-config';
import type { AgentScoredOn } from './scored-on';

/**
 * Default per scoring type, documented in fixtures/README.md. Only the two scorers that judge what a
 * change did to the repository read it; every other scorer answers a question about the repository.
 * `satisfies` makes a new scoring type a compile error here until someone decides.
 */
export const DEFAULT_AGENT_SCORED_ON = {
  state_assertions: 'repository',
  resolved_file_blocks: 'repository',
  exact_match: 'answer',
  similarity: 'answer',
  unordered_line_set: 'answer',
  numeric_exact: 'answer',
  json_semantic_equal: 'answer',
  command_equivalence: 'answer',
  structured: 'answer',
  commit_selection: 'answer',
  commit_hash_by_subject: 'answer',
  bisect_regression: 'answer',
  reflog_recovery: 'answer',
  stash_recovery: 'answer',
  llm_judge: 'answer',
  // The task families judge what the agent left in the repository (output files, the gist file).
  repo_task: 'repository',
  gist: 'repository',
  // GitGoodBench: the merge, the rewritten history or the commits the agent left.
  ggb_mcr: 'repository',
  ggb_ir: 'repository',
  ggb_icc: 'repository',
  // The hard tier's checks read the repository the agent left (and, for a named commit, what it submitted).
  repo_checks: 'repository',
} as const satisfies Record<ScoringType, AgentScoredOn>;

/** The tool set used when a campaign says `default` and the fixture names none. */
export const FALLBACK_TOOL_SET = 'bash+editor';

export function agentScoredOn(fixture: Fixture): AgentScoredOn {
  if (fixture.agent?.scored_on) return fixture.agent.scored_on;
  return (DEFAULT_AGENT_SCORED_ON as Record<string, AgentScoredOn>)[fixture.scoring.type] ?? 'answer';
}

/** The tool set an attempt uses: the campaign's choice unless it is `default`. */
export function resolveToolSet(fixture: Fixture, campaignToolSet: string): string {
  if (campaignToolSet !== DEFAULT_TOOL_SET) return campaignToolSet;
  return fixture.agent?.tool_set ?? FALLBACK_TOOL_SET;
}

/**
 * A single-answer prompt's instruction on how to write the answer ("Output ONLY the git command(s),
 * one per line.", "Output every conflicted file as a heading line ..."): one sentence, up to the first
 * full stop that ends it.
 */
const OUTPUT_FORMAT = /(?:^|(?<=[.!?:]))\s*Output\b[\s\S]*?\.(?=\s|$)/;

/**
 * The task text an agent is given, before its context is rendered: the fixture's agent prompt when it
 * has one (the task families write theirs for agents), else its prompt, without the output format when
 * the agent is scored on the repository (no answer is read, so no format is scored). The wording is
 * otherwise the fixture's own.
 */
export function agentTaskText(fixture: Fixture): string {
  if (fixture.agent?.prompt) return fixture.agent.prompt;
  if (agentScoredOn(fixture) === 'answer') return fixture.prompt;
  return fixture.prompt.replace(OUTPUT_FORMAT, '');
}

/**
 * The one statement of what is checked, added to a prompt written for single answers; null for an
 * agent prompt, which says it itself. It claims no tool (a tool set may have no shell).
 */
export function agentCheckStatement(fixture: Fixture, answerBy: 'submit' | 'final message' = 'submit'): string | null {
  if (fixture.agent?.prompt) return null;
  if (answerBy === 'final message') return finalMessageStatement(fixture);
  if (agentScoredOn(fixture) === 'answer')
    return (
      'What is checked is the answer you submit: call submit with ' +
      'exactly the answer the task asks for, in the form it asks for.'
    );
  if (fixture.scoring.type === 'resolved_file_blocks') {
    return (
      'What is checked is the conflicted files as you leave them in the working tree, resolved ' +
      'in place without conflict markers; then call submit (its answer is not checked).'
    );
  }
  return (
    'What is checked is the repository you leave (its commits, branches, tags, ' +
    'index and files); when it is done, call submit (its answer is not checked).'
  );
}

/**
 * The same statement for a third-party agent, which has no submit tool: its answer is its final
 * message (the last text the model answered with), and nothing else is asked of it.
 */
function finalMessageStatement(fixture: Fixture): string {
  if (agentScoredOn(fixture) === 'answer')
    return (
      'What is checked is your final message: end with a message that is exactly ' +
      'the answer the task asks for, in the form it asks for, and nothing else.'
    );
  if (fixture.scoring.type === 'resolved_file_blocks')
    return (
      'What is checked is the conflicted files as you leave them in ' +
      'the working tree, resolved in place without conflict markers.'
    );
  return 'What is checked is the repository you leave (its commits, branches, tags, index and files).';
}
