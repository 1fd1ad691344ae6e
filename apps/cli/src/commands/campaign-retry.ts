import { markDispatched, retryTransient } from '@gitbench/db';
import { onlyFlags, parseArgs } from '../args';
import { campaignIdArg, noSuchCampaign } from '../campaign/campaign-id';
import type { CliEnv } from '../env';
import { EXIT } from '../sandbox-driver';
import { withServices } from '../services';

/**
 * `gitbench campaign retry <id>`: only infrastructure failures are queued again, as new tries (the
 * failed tries stay in the history); each dispatch is recorded in Postgres before the job is sent.
 */
export async function campaignRetryCommand(argv: string[], env: CliEnv): Promise<number> {
  const args = parseArgs(argv, []);
  onlyFlags(args, ['json']);
  const id = campaignIdArg(args, 'usage: gitbench campaign retry <campaign id> [--json]');
  return withServices(env, { queue: true }, async (services) => {
    if (!(await services.db.campaign.findUnique({ where: { id }, select: { id: true } }))) return noSuchCampaign(id);
    let ids: string[];
    try {
      ids = await retryTransient(services.db, id);
    } catch (err) {
      process.stderr.write(`${(err as Error).message}\n`);
      return EXIT.failed;
    }
    const jobs = await markDispatched(services.db, ids);
    await services.queue!.enqueueMany('attempt.run', jobs);
    const result = { requeued: ids.length, dispatched: jobs.length };
    process.stdout.write(
      args.flags.has('json') ? `${JSON.stringify(result, null, 2)}\n` : `${id}: ${result.requeued} infrastructure failure(s) queued again, ${result.dispatched} dispatched\n`,
    );
    return EXIT.ok;
  });
}
