import {
  ATTEMPT_EVIDENCE_VERSION,
  newId,
  upstreamEvidenceSchema,
  type LegacyImportPlan,
  type UpstreamEvidence,
} from '@gitbench/core';
import type { Db } from '../client';
import type { Prisma } from '../generated/prisma/client';

/** Validated on the way in: a record that would not parse on the way out is refused here. */
const upstreamEvidence = (record: UpstreamEvidence) => upstreamEvidenceSchema.parse(record) as Prisma.InputJsonValue;

export interface LegacyImportResult {
  campaignId: string;
  created: boolean;
  attempts: number;
}

/**
 * Writes an upstream result file as a finished, one-trial legacy campaign in one transaction.
 * The config hash is the file's fingerprint, so importing the same file again finds the first import.
 */
export async function importLegacyCampaign(
  db: Db,
  source: string,
  plan: LegacyImportPlan,
): Promise<LegacyImportResult> {
  const existing = await db.campaign.findFirst({
    where: { legacy: true, configHash: plan.fingerprint },
    select: { id: true, _count: { select: { attempts: true } } },
  });
  if (existing) return { campaignId: existing.id, created: false, attempts: existing._count.attempts };

  const campaignId = newId('campaign');
  const targetId = newId('target');
  const timestamp = new Date(plan.timestamp);
  const created = Number.isNaN(timestamp.getTime()) ? new Date() : timestamp;
  const snapshots = new Map<string, string>();
  for (const a of plan.attempts) snapshots.set(`${a.domain}/${a.fixtureId}`, newId('fixtureSnapshot'));

  await db.$transaction(
    async (tx) => {
      await tx.campaign.create({
        data: {
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
          configHash: plan.fingerprint,
          seed: 0,
          suiteVersion: plan.suiteVersion,
          trials: 1,
          createdAt: created,
          startedAt: created,
          finishedAt: created,
          // Upstream's harness produced it: its commit is the version, with nothing known of its tree.
          productVersion: plan.gitSha,
        },
      });
      await tx.campaignTarget.create({
        data: {
          id: targetId,
          campaignId,
          modelId: plan.model,
          baseModel: plan.model,
          outputMode: plan.outputMode,
          profile: 'legacy',
        },
      });
      await tx.fixtureSnapshot.createMany({
        data: plan.attempts.map((a) => ({
          id: snapshots.get(`${a.domain}/${a.fixtureId}`)!,
          campaignId,
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
        })),
      });
      const attempts: Prisma.AttemptCreateManyInput[] = [];
      const tries: Prisma.AttemptTryCreateManyInput[] = [];
      for (const a of plan.attempts) {
        const attemptId = newId('attempt');
        const s = a.score;
        const finishedAt = created;
        attempts.push({
          id: attemptId,
          campaignId,
          targetId,
          fixtureSnapshotId: snapshots.get(`${a.domain}/${a.fixtureId}`)!,
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
          errorClass: a.status === 'INFRA_FAILURE' ? 'transport' : null,
          errorMessage: s.error || null,
        });
        const firstUser = s.transcript?.find((m) => m.role === 'user');
        tries.push({
          id: newId('attemptTry'),
          attemptId,
          tryNumber: 1,
          workerId: 'upstream',
          status: a.status,
          startedAt: finishedAt,
          finishedAt,
          errorClass: a.status === 'INFRA_FAILURE' ? 'transport' : null,
          errorMessage: s.error || null,
          evidence: upstreamEvidence({
            version: ATTEMPT_EVIDENCE_VERSION,
            origin: 'upstream',
            mode: plan.outputMode,
            prompt: typeof firstUser?.content === 'string' ? firstUser.content : (s.prompt ?? null),
            output: s.model_output ?? null,
            expected: s.expected ?? null,
            error: s.error
              ? { class: a.status === 'INFRA_FAILURE' ? 'transport' : 'upstream', message: s.error }
              : null,
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
          }),
        });
      }
      await tx.attempt.createMany({ data: attempts });
      await tx.attemptTry.createMany({ data: tries });
    },
    { timeout: 60_000 },
  );
  return { campaignId, created: true, attempts: plan.attempts.length };
}
