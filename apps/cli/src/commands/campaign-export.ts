import { writeFile } from 'node:fs/promises';
import { campaignAaExport, campaignAttemptsExport } from '@gitbench/db';
import { choiceFlag, onlyFlags, parseArgs, stringFlag } from '../args';
import { campaignIdArg, noSuchCampaign } from '../campaign/campaign-id';
import type { CliEnv } from '../env';
import { EXIT } from '../sandbox-driver';
import { withServices } from '../services';

const FORMATS = ['csv', 'json', 'aa'] as const;

/**
 * `gitbench campaign export <id> [--format csv|json|aa] [--output FILE]`: the web's exports, from the
 * same functions: every attempt as CSV or JSON, or upstream's artificialanalysis rows (aa).
 */
export async function campaignExportCommand(argv: string[], env: CliEnv): Promise<number> {
  const args = parseArgs(argv, ['format', 'output']);
  onlyFlags(args, ['format', 'output']);
  const id = campaignIdArg(args, 'usage: gitbench campaign export <campaign id> [--format csv|json|aa] [--output FILE]');
  const format = choiceFlag(args, 'format', FORMATS) ?? 'csv';
  const output = stringFlag(args, 'output');
  return withServices(env, { queue: false }, async (services) => {
    const body = format === 'aa' ? await campaignAaExport(services.db, id) : await campaignAttemptsExport(services.db, id, format);
    if (body === null) return noSuchCampaign(id);
    if (output) {
      await writeFile(output, body.endsWith('\n') ? body : `${body}\n`);
      process.stderr.write(`wrote ${output}\n`);
    } else process.stdout.write(body.endsWith('\n') ? body : `${body}\n`);
    return EXIT.ok;
  });
}
