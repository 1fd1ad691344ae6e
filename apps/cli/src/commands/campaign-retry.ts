import { retryCampaign } from '@gitbench/use-cases';
import { cliActor } from '../campaign/cli-actor';
import type { ParsedArgs } from '../args';
import { CampaignApi } from '../campaign/api-client';
import { campaignIdArg, noSuchCampaign } from '../campaign/campaign-id';
import type { CliEnv } from '../env';
import { EXIT } from '../exit';
import { withServices } from '../services';

type Answer = { requeued: number; dispatched: number; replanned?: boolean };

/**
 * `gitbench campaign retry <id>`: only infrastructure failures are queued again, as new tries (the
 * failed tries stay in the history), and a campaign whose planning failed is planned again.
 */
export async function campaignRetryCommand(args: ParsedArgs, env: CliEnv): Promise<number> {
  const id = campaignIdArg(args, 'usage: gitbench campaign retry <campaign id> [--json]');
  const print = (result: Answer) => {
    const planning = result.replanned ? '; its planning failed and is sent again' : '';
    process.stdout.write(
      args.flags.has('json')
        ? `${JSON.stringify(result, null, 2)}\n`
        : `${id}: ${result.requeued} infrastructure failure(s) ` +
            `queued again, ${result.dispatched} dispatched${planning}\n`,
    );
    return EXIT.ok;
  };
  const refuse = (error: string) => {
    process.stderr.write(`${error}\n`);
    return EXIT.failed;
  };
  const api = CampaignApi.fromEnv(env);
  if (api) {
    const answer = await api.json<Answer & { error?: string }>('POST', `/api/campaigns/${id}/retry`);
    if (answer.status === 404) return noSuchCampaign(id);
    return answer.status === 200 ? print(answer.body) : refuse(answer.body.error ?? `HTTP ${answer.status}`);
  }
  return withServices(env, { queue: true }, async (services) => {
    const result = await retryCampaign({ db: services.db, queue: services.queue! }, id, cliActor());
    if (!result.found) return noSuchCampaign(id);
    if (!result.ok) return refuse(result.error);
    const { requeued, dispatched, replanned } = result;
    return print({ requeued, dispatched, replanned });
  });
}
