import { readFile } from 'node:fs/promises';
import { ANSWER_MODES, type CampaignConfigErrors } from '@gitbench/core';
import { AGENT_FLAGS, agentSectionFromFlags, numeric } from '../agent-flags';
import { listFlag, stringFlag, UsageError, type ParsedArgs } from '../args';

/** Flags that spell a campaign configuration, field by field; `--config FILE` replaces them all. */
export const CONFIG_FLAGS = [
  'name',
  'created-by',
  'model',
  'output-mode',
  'mode',
  'agent',
  ...AGENT_FLAGS,
  'trials',
  'fixtures',
  'suite-version',
  'domain',
  'difficulty',
  'tag',
  'id',
  'seed',
  'judge-profile',
  'concurrency',
] as const;

export type ConfigInput = { ok: true; value: unknown } | { ok: false; errors: CampaignConfigErrors };

function outputModes(values: string[]): string[] | undefined {
  if (values.length === 0) return undefined;
  return values.flatMap((v) => (v === 'both' ? [...ANSWER_MODES] : [v]));
}

/** Only what was given: everything else takes the schema's default, exactly as an API body would. */
export function configFromFlags(args: ParsedArgs, defaults: { createdBy: string }): Record<string, unknown> {
  const fixtures = Object.fromEntries(
    Object.entries({
      suiteDir: stringFlag(args, 'fixtures'),
      suiteVersion: stringFlag(args, 'suite-version'),
      domains: listFlag(args, 'domain'),
      difficulties: listFlag(args, 'difficulty'),
      tags: listFlag(args, 'tag'),
      ids: listFlag(args, 'id'),
    }).filter(([, v]) => v !== undefined && !(Array.isArray(v) && v.length === 0)),
  );
  const models = listFlag(args, 'model', { commas: false });
  const agents = listFlag(args, 'agent');
  const config: Record<string, unknown> = {
    name: stringFlag(args, 'name'),
    createdBy: stringFlag(args, 'created-by') ?? defaults.createdBy,
    models: models.length > 0 ? models : undefined,
    outputModes: outputModes([...listFlag(args, 'output-mode'), ...listFlag(args, 'mode')]),
    agents: agents.length > 0 ? agents : undefined,
    agent: agentSectionFromFlags(args),
    fixtures: Object.keys(fixtures).length > 0 ? fixtures : undefined,
    trials: numeric(stringFlag(args, 'trials')),
    seed: numeric(stringFlag(args, 'seed')),
    judgeProfile: stringFlag(args, 'judge-profile'),
    concurrency: numeric(stringFlag(args, 'concurrency')),
  };
  return Object.fromEntries(Object.entries(config).filter(([, v]) => v !== undefined));
}

/** The configuration from `--config FILE` or from the flags; a file that is not JSON is a form error, as in the API. */
export async function configInput(args: ParsedArgs, defaults: { createdBy: string }): Promise<ConfigInput> {
  const file = stringFlag(args, 'config');
  if (file === undefined) return { ok: true, value: configFromFlags(args, defaults) };
  const mixed = CONFIG_FLAGS.filter((f) => args.flags.has(f));
  if (mixed.length > 0)
    throw new UsageError(
      `--config replaces the configuration flags; drop ${mixed.map((f) => `--${f}`).join(', ')} or put them in ${file}`,
    );
  const text = await readFile(file, 'utf8').catch((err: NodeJS.ErrnoException) => {
    throw new UsageError(`cannot read ${file}: ${err.code ?? err.message}`);
  });
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch (err) {
    return {
      ok: false,
      errors: { formErrors: [`${file} is not valid JSON: ${(err as Error).message}`], fieldErrors: {} },
    };
  }
}
