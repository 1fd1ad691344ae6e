import { existsSync, readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { planLegacyImport } from '@gitbench/core';
import { createDb, importLegacyCampaign, refreshCampaignStats } from '@gitbench/db';

/** Where the upstream GitBench result files live next to this repository, unless told otherwise. */
export function defaultLegacyResultsDir(root: string): string {
  return (
    process.env.GITBENCH_LEGACY_RESULTS ??
    path.resolve(process.env.GITBENCH_UPSTREAM_DIR ?? path.resolve(root, '../shared/gitbench-upstream'), 'results')
  );
}

/**
 * Imports every upstream result file of `dir` as a legacy campaign and refreshes its stats. Importing
 * is idempotent (a file already imported is found by its source), so running this twice adds nothing.
 * Returns the campaign ids, or null when the directory does not exist.
 */
export async function importLegacyResults(databaseUrl: string, dir: string): Promise<string[] | null> {
  if (!existsSync(dir)) return null;
  const db = createDb({ databaseUrl, maxConnections: 2 });
  try {
    const ids: string[] = [];
    for (const file of readdirSync(dir)
      .filter((f) => f.endsWith('.json'))
      .sort()) {
      const { campaignId } = await importLegacyCampaign(
        db,
        file,
        planLegacyImport(file, readFileSync(path.join(dir, file), 'utf8')),
      );
      await refreshCampaignStats(db, campaignId);
      ids.push(campaignId);
    }
    return ids;
  } finally {
    await db.$disconnect();
  }
}
