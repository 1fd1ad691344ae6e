import { summarizeAttempts } from '@gitbench/core';
import type { Db } from '../client';
import { loadAttemptRows } from '../campaigns/campaign-summary';
import { toCsv } from './csv';

/**
 * Upstream GitBench's `artificialanalysis` export (gitbench/export.py): CSV, one row per benchmark
 * (domain) of a run, `score` = passed ÷ total rounded to 4 places. Its eleven columns come first, in
 * its order; a campaign holds several runs (targets) and trials, so four columns follow that tell
 * rows apart and say what was left out.
 */
export const AA_COLUMNS = [
  'model',
  'benchmark',
  'score',
  'total',
  'passed',
  'timestamp',
  'git_sha',
  'provider',
  'profile',
  'benchmark_suite_version',
  'reasoning_level',
  'output_mode',
  'trials',
  'excluded',
  'campaign_id',
  'git_dirty',
] as const;

/**
 * The artificialanalysis rows of a campaign: one per target (model × effort × output mode) × domain.
 * `total` counts valid attempts over every trial and `passed` the passing ones, so `score` is the
 * mean one-attempt success (upstream's pass@1 when there is one trial). Attempts without a quality
 * outcome are left out and counted in `excluded`; a row without any valid attempt has an empty score,
 * never 0. `git_sha` is the GitBench that created the campaign (its commit, or the version baked into
 * its build) and `git_dirty` whether that tree had uncommitted changes; both empty when unknown.
 * `provider` stays empty, as upstream leaves it.
 */
export async function campaignAaExport(db: Db, campaignId: string): Promise<string | null> {
  const campaign = await db.campaign.findUnique({
    where: { id: campaignId },
    select: {
      id: true,
      trials: true,
      legacy: true,
      suiteVersion: true,
      createdAt: true,
      finishedAt: true,
      productVersion: true,
      productDirty: true,
    },
  });
  if (!campaign) return null;
  const [targets, rows] = await Promise.all([
    db.campaignTarget.findMany({ where: { campaignId } }),
    loadAttemptRows(db, campaignId),
  ]);
  const targetOf = new Map(targets.map((t) => [`${t.modelId}\0${t.outputMode}`, t]));
  const groups = summarizeAttempts(rows, { [campaignId]: { trials: campaign.trials, legacy: campaign.legacy } }, [
    'target',
    'domain',
  ]);
  const timestamp = (campaign.finishedAt ?? campaign.createdAt).toISOString();
  return toCsv(
    AA_COLUMNS,
    groups.map((g) => {
      const target = targetOf.get(`${g.key.modelId}\0${g.key.outputMode}`);
      const rate = g.meanSuccess;
      return [
        target?.baseModel ?? g.key.modelId,
        g.key.domain,
        rate.value === null ? null : Math.round(rate.value * 10000) / 10000,
        rate.denominator,
        rate.numerator,
        timestamp,
        campaign.productVersion,
        null,
        target?.profile,
        campaign.suiteVersion,
        g.key.effort,
        g.key.outputMode,
        campaign.trials,
        g.attempts - rate.denominator,
        campaign.id,
        campaign.productDirty,
      ];
    }),
  );
}
