import { formatModelId, parseModelId, type ReasoningEffort } from '../models/model-id';
import { compareCodeUnits } from '../canonical-json';
import { campaignAgents, canonicalConfig } from './config-hash';
import { storedAgent } from '../agent/agent-config';
import type { Mode } from '../mode';
import type { CampaignConfig } from './config-schema';
import { selectFixtures, type SelectableFixture } from './fixture-selection';

/**
 * One model × effort × output mode, and in agent mode the agent that drives the model: the unit the leaderboard ranks.
 */
export interface PlannedTarget {
  /** Canonical `base#effort` spelling. */
  modelId: string;
  baseModel: string;
  reasoningEffort: ReasoningEffort | null;
  outputMode: Mode;
  /** A third-party agent (claude-code, codex, ...) in agent mode; null: GitBench's own loop, or not agent mode. */
  agent: string | null;
}

/** The identity of one attempt; field names match the Attempt table. */
export interface PlannedAttempt {
  trial: number;
  targetIndex: number;
  fixtureIndex: number;
  modelId: string;
  reasoningEffort: ReasoningEffort | null;
  outputMode: Mode;
  domain: string;
  fixtureId: string;
  difficulty: string;
}

export interface CampaignPlan<F extends SelectableFixture> {
  targets: PlannedTarget[];
  fixtures: F[];
  attempts: PlannedAttempt[];
}

export type CampaignPlanErrorCode = 'unknown_fixture_ids' | 'no_fixtures_selected';

export class CampaignPlanError extends Error {
  override readonly name = 'CampaignPlanError';
  constructor(
    readonly code: CampaignPlanErrorCode,
    message: string,
    /** The configuration field to show the message on. */
    readonly field: string,
  ) {
    super(message);
  }
}

export function planTargets(config: CampaignConfig): PlannedTarget[] {
  const canonical = canonicalConfig(config);
  const targets: PlannedTarget[] = [];
  for (const raw of canonical.models) {
    const id = parseModelId(raw);
    for (const outputMode of canonical.outputModes) {
      const agents = outputMode === 'agent' ? campaignAgents(canonical).map(storedAgent) : [null];
      for (const agent of agents)
        targets.push({
          modelId: formatModelId(id),
          baseModel: id.baseModel,
          reasoningEffort: id.effort ?? null,
          outputMode,
          agent,
        });
    }
  }
  // Our own loop (null) first, then the agents by name: a campaign without agents keeps its old order.
  return targets.sort(
    (a, b) =>
      compareCodeUnits(a.modelId, b.modelId) ||
      compareCodeUnits(a.outputMode, b.outputMode) ||
      (a.agent === b.agent ? 0 : a.agent === null ? -1 : b.agent === null ? 1 : compareCodeUnits(a.agent, b.agent)),
  );
}

/**
 * The cartesian plan: every target × selected fixture × trial, in a stable order that depends only on
 * the canonical configuration and the suite.
 *
 * Trial-major: with a FIFO queue the rounds finish in order, so a long campaign has complete trials
 * (which cost per complete trial needs) early and an interrupted one loses the latest round only.
 * Within a trial, fixture-major: consecutive attempts go to different targets, which spreads load over
 * providers instead of sending one model a burst.
 */
export function planAttempts<F extends SelectableFixture>(
  config: CampaignConfig,
  suite: readonly F[],
): CampaignPlan<F> {
  const canonical = canonicalConfig(config);
  const { fixtures, unknownIds } = selectFixtures(canonical.fixtures, suite);
  if (unknownIds.length > 0) {
    throw new CampaignPlanError(
      'unknown_fixture_ids',
      `No fixture in the suite is called ${unknownIds.join(', ')}.`,
      'fixtures.ids',
    );
  }
  if (fixtures.length === 0) {
    throw new CampaignPlanError('no_fixtures_selected', 'The selection matches no fixture of the suite.', 'fixtures');
  }

  const targets = planTargets(canonical);
  const attempts: PlannedAttempt[] = [];
  for (let trial = 1; trial <= canonical.trials; trial++) {
    fixtures.forEach((fixture, fixtureIndex) => {
      targets.forEach((target, targetIndex) => {
        attempts.push({
          trial,
          targetIndex,
          fixtureIndex,
          modelId: target.modelId,
          reasoningEffort: target.reasoningEffort,
          outputMode: target.outputMode,
          domain: fixture.domain,
          fixtureId: fixture.id,
          difficulty: fixture.difficulty,
        });
      });
    });
  }
  return { targets, fixtures, attempts };
}

/** Attempts a configuration will schedule, for the form's preview before launch. */
export function plannedAttemptCount(config: CampaignConfig, selectedFixtureCount: number): number {
  return planTargets(config).length * selectedFixtureCount * canonicalConfig(config).trials;
}
