import { UsageError } from '../args';
import { readCliEnv, type CliEnv } from '../env';
import { campaignCancelCommand } from './campaign-cancel';
import { campaignCreateCommand, CREATE_USAGE } from './campaign-create';
import { campaignExportCommand } from './campaign-export';
import { campaignRetryCommand } from './campaign-retry';
import { campaignStatusCommand } from './campaign-status';

const SUBCOMMANDS: Record<string, (argv: string[], env: CliEnv) => Promise<number>> = {
  create: campaignCreateCommand,
  status: campaignStatusCommand,
  cancel: campaignCancelCommand,
  retry: campaignRetryCommand,
  export: campaignExportCommand,
};

export const CAMPAIGN_USAGE = `usage: gitbench campaign create|status|cancel|retry|export ...
${CREATE_USAGE}
       gitbench campaign status <campaign id> [--json]
       gitbench campaign cancel <campaign id> [--json]
       gitbench campaign retry <campaign id> [--json]
       gitbench campaign export <campaign id> [--format csv|json|aa] [--output FILE]`;

/**
 * `gitbench campaign <subcommand>`: campaigns in Postgres and the workers' queue, without the web
 * server. The environment is validated once, here, before any subcommand connects.
 */
export async function campaignCommand(argv: string[]): Promise<number> {
  const [sub, ...rest] = argv;
  const run = sub ? SUBCOMMANDS[sub] : undefined;
  if (!run) throw new UsageError(sub && sub !== '--help' ? `unknown subcommand '${sub}'\n${CAMPAIGN_USAGE}` : CAMPAIGN_USAGE);
  return run(rest, readCliEnv());
}
