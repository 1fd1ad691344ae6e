import {
  ATTEMPT_EVIDENCE_VERSION,
  newId,
  upstreamEvidenceSchema,
  type LegacyAttempt,
  type LegacyImportPlan,
  type UpstreamEvidence,
} from '@gitbench/core';
import type { Prisma } from '../generated/prisma/client';

/**
 * The rows a legacy import writes, one builder per table. An upstream file is one finished trial,
 * so every attempt has one try, and every time stamp is the file's.
 */

/** The ids the rows of one import share: its campaign, its one target, and a snapshot per fixture. */
export interface LegacyIds {
  campaignId: string;
  targetId: string;
  snapshots: Map<string, string>;
}

const fixtureKey = (a: Pick<LegacyAttempt, 'domain' | 'fixtureId'>) => `${a.domain}/${a.fixtureId}`;

export function legacyIds(plan: LegacyImportPlan): LegacyIds {
  const campaignId = newId('campaign');
  const targetId = newId('target');
  const snapshots = new Map<string, string>();
  for (const a of plan.attempts) snapshots.set(fixtureKey(a), newId('fixtureSnapshot'));
  return { campaignId, targetId, snapshots };
}

/** When the file says it ran; an unreadable time stamp becomes the time of the import. */
export function legacyCreatedAt(plan: LegacyImportPlan): Date {
  const timestamp = new Date(plan.timestamp);
  return Number.isNaN(timestamp.getTime()) ? new Date() : timestamp;
}

export function legacyCampaignRow(
  plan: LegacyImportPlan,
  source: string,
  campaignId: string,
  created: Date,
): Prisma.CampaignUncheckedCreateInput {
  return {
    id: campaignId,
    name: `Legacy import: ${plan.model} (${plan.outputMode}, ${plan.timestamp.slice(0, 10)})`,
    createdBy: 'import-legacy',
    status: 'COMPLETED',
    legacy: true,
    safetyReview: plan.safetyReview,
    config: {
      source,
      model: plan.model,
      outputMode: plan.outputMode,
      suiteVersion: plan.suiteVersion,
      trials: 1,
      legacy: true,
    },
    // The file's fingerprint: importing the same file again finds this campaign.
    configHash: plan.fingerprint,
    seed: 0,
    suiteVersion: plan.suiteVersion,
    trials: 1,
    createdAt: created,
    startedAt: created,
    finishedAt: created,
    // Upstream's harness produced it: its commit is the version, with nothing known of its tree.
    productVersion: plan.gitSha,
  };
}

export function legacyTargetRow(plan: LegacyImportPlan, ids: LegacyIds): Prisma.CampaignTargetUncheckedCreateInput {
  return {
    id: ids.targetId,
    campaignId: ids.campaignId,
    modelId: plan.model,
    baseModel: plan.model,
    outputMode: plan.outputMode,
    profile: 'legacy',
  };
}

/** A fixture's definition as upstream recorded it beside its score; how it was scored is not known. */
export function legacySnapshotRows(plan: LegacyImportPlan, ids: LegacyIds): Prisma.FixtureSnapshotCreateManyInput[] {
  return plan.attempts.map((a) => ({
    id: ids.snapshots.get(fixtureKey(a))!,
    campaignId: ids.campaignId,
    domain: a.domain,
    fixtureId: a.fixtureId,
    difficulty: a.difficulty,
    tags: a.tags,
    scoringType: 'unknown',
    definition: {
      id: a.fixtureId,
      domain: a.domain,
      description: a.score.description ?? '',
      purpose: a.score.purpose ?? null,
      prompt: a.score.prompt ?? '',
      expected: a.score.expected ?? '',
      difficulty: a.difficulty,
      tags: a.tags,
    },
  }));
}

/** Upstream's infrastructure failures were transport errors; its other errors are the model's. */
const errorClassOf = (a: LegacyAttempt) => (a.status === 'INFRA_FAILURE' ? 'transport' : null);

export function legacyAttemptRow(
  plan: LegacyImportPlan,
  a: LegacyAttempt,
  ids: LegacyIds,
  attemptId: string,
  finishedAt: Date,
): Prisma.AttemptCreateManyInput {
  const s = a.score;
  return {
    id: attemptId,
    campaignId: ids.campaignId,
    targetId: ids.targetId,
    fixtureSnapshotId: ids.snapshots.get(fixtureKey(a))!,
    trial: 1,
    modelId: plan.model,
    reasoningEffort: s.reasoning_level ?? null,
    outputMode: plan.outputMode,
    domain: a.domain,
    fixtureId: a.fixtureId,
    difficulty: a.difficulty,
    status: a.status,
    passed: a.status === 'INFRA_FAILURE' ? null : s.passed,
    score: s.similarity ?? null,
    tryCount: 1,
    queuedAt: finishedAt,
    startedAt: finishedAt,
    finishedAt,
    inputTokens: s.input_tokens ?? null,
    outputTokens: s.output_tokens ?? null,
    reasoningTokens: s.reasoning_tokens ?? null,
    totalTokens: s.total_tokens ?? null,
    costUsd: s.cost_usd ?? null,
    apiDurationMs: s.api_duration_ms == null ? null : Math.round(s.api_duration_ms),
    productVersion: plan.gitSha,
    wallDurationMs: s.duration_ms == null ? null : Math.round(s.duration_ms),
    errorClass: errorClassOf(a),
    errorMessage: s.error || null,
  };
}

/** Validated on the way in: a record that would not parse on the way out is refused here. */
const upstreamEvidence = (record: UpstreamEvidence) => upstreamEvidenceSchema.parse(record) as Prisma.InputJsonValue;

/** What upstream recorded of the attempt, kept as its try's evidence. */
function legacyEvidence(plan: LegacyImportPlan, a: LegacyAttempt): Prisma.InputJsonValue {
  const s = a.score;
  const firstUser = s.transcript?.find((m) => m.role === 'user');
  return upstreamEvidence({
    version: ATTEMPT_EVIDENCE_VERSION,
    origin: 'upstream',
    mode: plan.outputMode,
    prompt: typeof firstUser?.content === 'string' ? firstUser.content : (s.prompt ?? null),
    output: s.model_output ?? null,
    expected: s.expected ?? null,
    error: s.error ? { class: a.status === 'INFRA_FAILURE' ? 'transport' : 'upstream', message: s.error } : null,
    verdict: { passed: s.passed, similarity: s.similarity ?? null, error: s.error ?? null },
    transcript: (s.transcript ?? []) as Record<string, unknown>[],
    requestConfig: s.request_config ?? {},
    route: s.provider_route_metadata ?? {},
    telemetry: s.request_telemetry ?? {},
    usage: {
      input: s.input_tokens ?? null,
      output: s.output_tokens ?? null,
      reasoning: s.reasoning_tokens ?? null,
      total: s.total_tokens ?? null,
      costUsd: s.cost_usd ?? null,
    },
  });
}

export function legacyTryRow(
  plan: LegacyImportPlan,
  a: LegacyAttempt,
  attemptId: string,
  finishedAt: Date,
): Prisma.AttemptTryCreateManyInput {
  return {
    id: newId('attemptTry'),
    attemptId,
    tryNumber: 1,
    workerId: 'upstream',
    status: a.status,
    startedAt: finishedAt,
    finishedAt,
    errorClass: errorClassOf(a),
    errorMessage: a.score.error || null,
    evidence: legacyEvidence(plan, a),
  };
}
