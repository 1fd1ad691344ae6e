import { summarizeCampaign, type CampaignSummary } from '@gitbench/db/campaign-summary';
import { CampaignApi } from '../campaign/api-client';
import type { ParsedArgs } from '../args';
import { campaignIdArg, noSuchCampaign } from '../campaign/campaign-id';
import { formatStatus } from '../campaign/format-status';
import type { CliEnv } from '../env';
import { EXIT } from '../exit';
import { withSqlDb } from '../services';

/**
 * `gitbench campaign status <id> [--json]`: counts by status, completeness in its three parts, and per
 * target the mean success (numerator/denominator, Wilson interval), pass_any_at_n and the stable and
 * flaky fixture counts, all from core's aggregation.
 */
export async function campaignStatusCommand(args: ParsedArgs, env: CliEnv): Promise<number> {
  const id = campaignIdArg(args, 'usage: gitbench campaign status <campaign id> [--json]');
  const print = (summary: CampaignSummary) => {
    process.stdout.write(args.flags.has('json') ? `${JSON.stringify(summary, null, 2)}\n` : formatStatus(summary));
    return EXIT.ok;
  };
  const api = CampaignApi.fromEnv(env);
  if (api) {
    const answer = await api.json<CampaignSummary>('GET', `/api/campaigns/${id}/summary`);
    return answer.status === 404 ? noSuchCampaign(id) : print(answer.body);
  }
  return withSqlDb(env, async (db) => {
    const summary = await summarizeCampaign(db, id);
    return summary ? print(summary) : noSuchCampaign(id);
  });
}
