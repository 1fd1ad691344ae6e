import { readdir, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { LegacyEnvelopeError, planLegacyImport, type LegacyImportPlan } from '@gitbench/core';
import { importLegacyCampaign, refreshCampaignStats } from '@gitbench/db';
import { UsageError, type ParsedArgs } from '../args';
import type { CliEnv } from '../env';
import { EXIT } from '../exit';
import { withServices } from '../services';

/** Files as named; a directory stands for the *.json files in it. */
async function expand(paths: string[]): Promise<string[]> {
  const files: string[] = [];
  for (const p of paths) {
    const info = await stat(p).catch(() => {
      throw new UsageError(`${p} does not exist`);
    });
    if (!info.isDirectory()) files.push(p);
    else
      files.push(
        ...(await readdir(p))
          .filter((f) => f.endsWith('.json'))
          .sort()
          .map((f) => path.join(p, f)),
      );
  }
  return files;
}

/**
 * `gitbench import-legacy <files...>`: upstream result files as finished one-trial legacy campaigns.
 * Every file is validated first and nothing is written unless all are valid; importing a file again
 * finds its first import (the file's content is its fingerprint).
 */
export async function importLegacyCommand(args: ParsedArgs, env: CliEnv): Promise<number> {
  const files = await expand(args.positionals);
  if (files.length === 0) throw new UsageError(`no .json result files in ${args.positionals.join(' ')}`);
  const plans: { file: string; plan: LegacyImportPlan }[] = [];
  const invalid: string[] = [];
  for (const file of files) {
    try {
      plans.push({ file, plan: planLegacyImport(path.basename(file), await readFile(file, 'utf8')) });
    } catch (err) {
      if (!(err instanceof LegacyEnvelopeError)) throw err;
      invalid.push(`${file}: ${err.message.slice(path.basename(file).length + 2)}`);
    }
  }
  if (invalid.length > 0) {
    process.stderr.write(
      `not imported, ${invalid.length} invalid file(s):\n${invalid.map((l) => `  ${l}`).join('\n')}\n`,
    );
    return EXIT.failed;
  }
  return withServices(env, { queue: false }, async ({ db }) => {
    const results = [];
    for (const { file, plan } of plans) {
      const imported = await importLegacyCampaign(db, path.basename(file), plan);
      // The dashboard reads CampaignStats; a fresh import gets its rows now, a repeat already has them.
      if (imported.created) await refreshCampaignStats(db, imported.campaignId);
      results.push({ file, model: plan.model, outputMode: plan.outputMode, ...imported });
    }
    if (args.flags.has('json')) process.stdout.write(`${JSON.stringify(results, null, 2)}\n`);
    else {
      for (const r of results) {
        process.stdout.write(
          `${r.created ? 'imported' : 'already imported'} ${r.file} ` +
            `→ ${r.campaignId} (${r.model}, ${r.outputMode}, ${r.attempts} attempts)\n`,
        );
      }
    }
    return EXIT.ok;
  });
}
