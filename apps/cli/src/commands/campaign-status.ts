import { summarizeCampaign } from '@gitbench/db';
import { onlyFlags, parseArgs } from '../args';
import { campaignIdArg, noSuchCampaign } from '../campaign/campaign-id';
import { formatStatus } from '../campaign/format-status';
import type { CliEnv } from '../env';
import { EXIT } from '../sandbox-driver';
import { withServices } from '../services';

/**
 * `gitbench campaign status <id> [--json]`: counts by status, completeness in its three parts, and per
 * target the mean success (numerator/denominator, Wilson interval), pass_any_at_n and the stable and
 * flaky fixture counts, all from core's aggregation.
 */
export async function campaignStatusCommand(argv: string[], env: CliEnv): Promise<number> {
  const args = parseArgs(argv, []);
  onlyFlags(args, ['json']);
  const id = campaignIdArg(args, 'usage: gitbench campaign status <campaign id> [--json]');
  return withServices(env, { queue: false }, async (services) => {
    const summary = await summarizeCampaign(services.db, id);
    if (!summary) return noSuchCampaign(id);
    process.stdout.write(args.flags.has('json') ? `${JSON.stringify(summary, null, 2)}\n` : formatStatus(summary));
    return EXIT.ok;
  });
}
