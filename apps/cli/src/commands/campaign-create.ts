import { userInfo } from 'node:os';
import type { CampaignConfigErrors } from '@gitbench/core';
import { createCampaign, prepareCampaign, summarizeCampaign } from '@gitbench/db';
import { onlyFlags, parseArgs, UsageError } from '../args';
import { campaignDeps } from '../campaign/campaign-deps';
import { CONFIG_FLAGS, configInput } from '../campaign/config-input';
import { followCampaign } from '../campaign/follow';
import { formatStatus } from '../campaign/format-status';
import type { CliEnv } from '../env';
import { loadRegistry } from '../registry';
import { EXIT } from '../sandbox-driver';
import { withServices } from '../services';

export const CREATE_USAGE =
  'usage: gitbench campaign create (--config FILE | --name NAME --model ID [--model ID ...] [--output-mode text|json_schema|both]\n' +
  '         [--trials N] [--fixtures DIR] [--suite-version V] [--domain D] [--difficulty D] [--tag T] [--id DOMAIN/ID]\n' +
  '         [--seed N] [--judge-profile NAME] [--concurrency N] [--created-by WHO]) [--dry-run] [--wait] [--json]';

function whoami(): string {
  try {
    return userInfo().username;
  } catch {
    return process.env.USER ?? 'cli';
  }
}

/** The API's 400 body, as the API sends it. */
function fieldErrors(errors: CampaignConfigErrors): number {
  process.stderr.write(`${JSON.stringify(errors, null, 2)}\n`);
  return EXIT.usage;
}

/**
 * `gitbench campaign create`: the API's POST /api/campaigns on the same service function. An invalid
 * configuration prints the same field errors as the API's 400 and writes nothing.
 */
export async function campaignCreateCommand(argv: string[], env: CliEnv): Promise<number> {
  const args = parseArgs(argv, [...CONFIG_FLAGS, 'config']);
  onlyFlags(args, [...CONFIG_FLAGS, 'config', 'dry-run', 'wait', 'json']);
  if (args.positionals.length > 0) throw new UsageError(CREATE_USAGE);
  const input = await configInput(args, { createdBy: whoami() });
  const registry = await loadRegistry(process.env);
  let enqueue: ((campaignId: string) => Promise<void>) | undefined;
  const deps = campaignDeps(registry, (campaignId) => enqueue!(campaignId));

  // Checked before any service is opened: a wrong field is reported even with the database down.
  if (!input.ok) return fieldErrors(input.errors);
  const prepared = await prepareCampaign(input.value, deps);
  if (!prepared.ok) return fieldErrors(prepared.errors);
  if (args.flags.has('dry-run')) {
    const plan = {
      attempts: prepared.plan.attempts.length,
      targets: prepared.plan.targets.length,
      fixtures: prepared.plan.fixtures.length,
      trials: prepared.config.trials,
      suiteVersion: prepared.config.fixtures.suiteVersion,
      configHash: prepared.hash,
      skippedInvalidFixtures: prepared.suite.invalid.length,
    };
    const line = `would run ${plan.attempts} attempt(s): ${plan.targets} target(s) × ${plan.fixtures} fixture(s) × ${plan.trials} trial(s), suite ${plan.suiteVersion}, config ${plan.configHash.slice(0, 12)}`;
    process.stdout.write(args.flags.has('json') ? `${JSON.stringify(plan, null, 2)}\n` : `${line}\n`);
    return EXIT.ok;
  }

  return withServices(env, { queue: true }, async (services) => {
    enqueue = async (campaignId) => {
      await services.queue!.enqueue('campaign.plan', { campaignId });
    };
    const result = await createCampaign(services.db, input.value, deps);
    if (!result.ok) return fieldErrors(result.errors);
    const json = args.flags.has('json');
    if (!json) {
      process.stdout.write(`${result.campaignId}\n`);
      process.stderr.write(`created: ${result.attempts} attempt(s), ${result.targets} target(s) × ${result.fixtures} fixture(s)\n`);
    }
    if (!result.queued) process.stderr.write(`the plan job is not queued yet (${result.queueError}); a worker's reaper sends it again once Redis answers\n`);
    if (!args.flags.has('wait')) {
      if (json) process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
      return EXIT.ok;
    }
    const status = await followCampaign(services.db, result.campaignId);
    const summary = await summarizeCampaign(services.db, result.campaignId);
    if (json) process.stdout.write(`${JSON.stringify({ ...result, final: summary }, null, 2)}\n`);
    else if (summary) process.stdout.write(formatStatus(summary));
    // Waiting scripts learn from the exit code whether the campaign counts: finished and complete.
    return status === 'COMPLETED' && summary?.completeness.complete ? EXIT.ok : EXIT.failed;
  });
}
