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
