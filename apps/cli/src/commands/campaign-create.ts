import { userInfo } from 'node:os';
import type { CampaignConfigErrors } from '@gitbench/core';
import type { CampaignSummary } from '@gitbench/db';
import { createCampaign, prepareCampaign } from '@gitbench/use-cases';
import { cliActor } from '../campaign/cli-actor';
import type { ParsedArgs } from '../args';
import { CampaignApi } from '../campaign/api-client';
import { campaignDeps } from '../campaign/campaign-deps';
import { configInput, type ConfigInput } from '../campaign/config-input';
import { followCampaignViaApi, followToSummary } from '../campaign/follow';
import { formatStatus } from '../campaign/format-status';
import type { CliEnv } from '../env';
import { loadRegistry } from '../registry';
import { EXIT } from '../exit';
import { withServices } from '../services';

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
 * `gitbench campaign create`: the API's POST /api/campaigns on the same use case. An invalid
 * configuration prints the same field errors as the API's 400 and writes nothing.
 */
export async function campaignCreateCommand(args: ParsedArgs, env: CliEnv): Promise<number> {
  const input = await configInput(args, { createdBy: whoami() });
  const api = CampaignApi.fromEnv(env);
  if (api) return createViaApi(api, args, input);
  const registry = await loadRegistry(process.env);
  const deps = campaignDeps(registry);

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
    const line =
      `would run ${plan.attempts} attempt(s): ${plan.targets} target(s) × ${plan.fixtures} fixture(s) ` +
      `× ${plan.trials} trial(s), suite ${plan.suiteVersion}, config ${plan.configHash.slice(0, 12)}`;
    process.stdout.write(args.flags.has('json') ? `${JSON.stringify(plan, null, 2)}\n` : `${line}\n`);
    return EXIT.ok;
  }

  return withServices(env, { queue: true }, async (services) => {
    const result = await createCampaign({ ...deps, db: services.db, queue: services.queue! }, input.value, cliActor());
    if (!result.ok) return fieldErrors(result.errors);
    const json = args.flags.has('json');
    if (!json) {
      process.stdout.write(`${result.campaignId}\n`);
      process.stderr.write(
        `created: ${result.attempts} attempt(s), ${result.targets} target(s) × ${result.fixtures} fixture(s)\n`,
      );
    }
    if (!result.queued)
      process.stderr.write(
        `the plan job is not queued yet (${result.queueError}); a worker's reaper sends it again once Redis answers\n`,
      );
    if (!args.flags.has('wait')) {
      if (json) process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
      return EXIT.ok;
    }
    const { status, summary } = await followToSummary(services.db, result.campaignId);
    if (json) process.stdout.write(`${JSON.stringify({ ...result, final: summary }, null, 2)}\n`);
    else if (summary) process.stdout.write(formatStatus(summary));
    // Waiting scripts learn from the exit code whether the campaign counts: finished and complete.
    return status === 'COMPLETED' && summary?.completeness.complete ? EXIT.ok : EXIT.failed;
  });
}

interface Estimate {
  attempts: number;
  targets: number;
  fixtures: number;
  trials: number;
  suiteVersion: string;
  configHash: string;
}

interface Created {
  campaignId?: string;
  attempts?: number;
  targets?: number;
  fixtures?: number;
  queued?: boolean;
  queueError?: string;
}

/**
 * The same command over the web app's HTTP API (GITBENCH_URL): the server validates the configuration
 * against its own suites and profiles and records the token's user as the creator.
 */
async function createViaApi(api: CampaignApi, args: ParsedArgs, input: ConfigInput): Promise<number> {
  if (!input.ok) return fieldErrors(input.errors);
  const json = args.flags.has('json');
  if (args.flags.has('dry-run')) {
    const estimate = await api.json<Estimate & CampaignConfigErrors>('POST', '/api/campaigns/estimate', input.value);
    if (estimate.status !== 200) return fieldErrors(estimate.body);
    const b = estimate.body;
    const line =
      `would run ${b.attempts} attempt(s): ${b.targets} target(s) × ${b.fixtures} fixture(s) ` +
      `× ${b.trials} trial(s), suite ${b.suiteVersion}, config ${b.configHash.slice(0, 12)}`;
    process.stdout.write(json ? `${JSON.stringify(estimate.body, null, 2)}\n` : `${line}\n`);
    return EXIT.ok;
  }
  const created = await api.json<Created & CampaignConfigErrors>('POST', '/api/campaigns', input.value);
  if (created.status !== 201 || !created.body.campaignId) return fieldErrors(created.body);
  const result = created.body;
  const id = result.campaignId!;
  if (!json) {
    process.stdout.write(`${id}\n`);
    process.stderr.write(
      `created: ${result.attempts} attempt(s), ${result.targets} target(s) × ${result.fixtures} fixture(s)\n`,
    );
  }
  if (!args.flags.has('wait')) {
    if (json) process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
    return EXIT.ok;
  }
  const status = await followCampaignViaApi(api, id);
  const summary = (await api.json<CampaignSummary>('GET', `/api/campaigns/${id}/summary`)).body;
  if (json) process.stdout.write(`${JSON.stringify({ ...result, final: summary }, null, 2)}\n`);
  else process.stdout.write(formatStatus(summary));
  return status === 'COMPLETED' && summary.completeness.complete ? EXIT.ok : EXIT.failed;
}
