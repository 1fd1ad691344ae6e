import { cancelCampaign } from '@gitbench/use-cases';
import { cliActor } from '../campaign/cli-actor';
import type { ParsedArgs } from '../args';
import { CampaignApi } from '../campaign/api-client';
import { campaignIdArg, noSuchCampaign } from '../campaign/campaign-id';
import type { CliEnv } from '../env';
import { EXIT } from '../exit';
import { withServices } from '../services';

type Answer = { cancelled?: boolean; stoppedQueued?: number; sandboxRemoval?: string; status?: string };

/**
 * `gitbench campaign cancel <id>`: queued attempts become CANCELLED, running ones stop at their next
 * heartbeat, and the workers are asked to remove the campaign's sandboxes at once.
 */
export async function campaignCancelCommand(args: ParsedArgs, env: CliEnv): Promise<number> {
  const id = campaignIdArg(args, 'usage: gitbench campaign cancel <campaign id> [--json]');
  const print = (answer: Answer) => {
    if (args.flags.has('json')) process.stdout.write(`${JSON.stringify(answer, null, 2)}\n`);
    else if (answer.cancelled)
      process.stdout.write(
        `cancelled ${id}: ${answer.stoppedQueued} queued attempt(s) ` +
          `stopped; running ones stop at their next heartbeat\n`,
      );
    else
      process.stderr.write(
        `${id}${answer.status ? ` is ${answer.status.toLowerCase()}` : ''}: there is nothing to cancel\n`,
      );
    return answer.cancelled ? EXIT.ok : EXIT.failed;
  };
  const api = CampaignApi.fromEnv(env);
  if (api) {
    const answer = await api.json<Answer>('POST', `/api/campaigns/${id}/cancel`);
    return answer.status === 404 ? noSuchCampaign(id) : print(answer.body);
  }
  return withServices(env, { queue: true }, async (services) => {
    const result = await cancelCampaign({ db: services.db, queue: services.queue! }, id, cliActor());
    if (!result.found) return noSuchCampaign(id);
    const { status, cancelled, stoppedQueued, sandboxRemoval } = result;
    return print(
      args.flags.has('json') ? { cancelled, stoppedQueued, sandboxRemoval } : { status, cancelled, stoppedQueued },
    );
  });
}
