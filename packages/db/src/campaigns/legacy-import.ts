import { newId, type LegacyImportPlan } from '@gitbench/core';
import type { Db } from '../client';
import type { Prisma } from '../generated/prisma/client';
import {
  legacyAttemptRow,
  legacyCampaignRow,
  legacyCreatedAt,
  legacyIds,
  legacySnapshotRows,
  legacyTargetRow,
  legacyTryRow,
} from './legacy-import-rows';

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

  const ids = legacyIds(plan);
  const created = legacyCreatedAt(plan);
  await db.$transaction(
    async (tx) => {
      await tx.campaign.create({ data: legacyCampaignRow(plan, source, ids.campaignId, created) });
      await tx.campaignTarget.create({ data: legacyTargetRow(plan, ids) });
      await tx.fixtureSnapshot.createMany({ data: legacySnapshotRows(plan, ids) });
      const attempts: Prisma.AttemptCreateManyInput[] = [];
      const tries: Prisma.AttemptTryCreateManyInput[] = [];
      for (const a of plan.attempts) {
        const attemptId = newId('attempt');
        attempts.push(legacyAttemptRow(plan, a, ids, attemptId, created));
        tries.push(legacyTryRow(plan, a, attemptId, created));
      }
      await tx.attempt.createMany({ data: attempts });
      await tx.attemptTry.createMany({ data: tries });
    },
    { timeout: 60_000 },
  );
  return { campaignId: ids.campaignId, created: true, attempts: plan.attempts.length };
}
