import { createWriteStream } from 'node:fs';
import { Readable } from 'node:stream';
import { once } from 'node:events';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import { campaignAaExport, campaignAttemptsExport, recordAudit } from '@gitbench/db';
import { cliActor } from '../campaign/cli-actor';
import { choiceFlag, stringFlag, type ParsedArgs } from '../args';
import { CampaignApi } from '../campaign/api-client';
import { campaignIdArg, noSuchCampaign } from '../campaign/campaign-id';
import type { CliEnv } from '../env';
import { EXIT } from '../exit';
import { withServices } from '../services';

const FORMATS = ['csv', 'json', 'aa'] as const;

/** An export as it arrives, to the file or to stdout (which stays open), waiting when the reader is slower. */
async function writeOut(
  chunks: AsyncIterable<string | Uint8Array> | Iterable<string>,
  output: string | undefined,
): Promise<void> {
  if (output) return pipeline(Readable.from(chunks), createWriteStream(output));
  for await (const chunk of chunks) if (!process.stdout.write(chunk)) await once(process.stdout, 'drain');
}

/**
 * `gitbench campaign export <id> [--format csv|json|aa] [--output FILE]`: the web's exports, from the
 * same functions: every attempt as CSV or JSON, or upstream's artificialanalysis rows (aa).
 */
export async function campaignExportCommand(args: ParsedArgs, env: CliEnv): Promise<number> {
  const id = campaignIdArg(
    args,
    'usage: gitbench campaign export <campaign id> [--format csv|json|aa] [--output FILE]',
  );
  const format = choiceFlag(args, 'format', FORMATS) ?? 'csv';
  const output = stringFlag(args, 'output');
  const api = CampaignApi.fromEnv(env);
  if (api) {
    // Streamed through: an export of a large campaign is never held in memory whole.
    const res = await api.raw('GET', `/api/export/campaigns/${id}?format=${format}`);
    if (res.status === 404) return noSuchCampaign(id);
    if (!res.ok || !res.body) {
      process.stderr.write(`export failed: HTTP ${res.status}\n`);
      return EXIT.failed;
    }
    await writeOut(Readable.fromWeb(res.body as WebReadableStream<Uint8Array>), output);
    if (output) process.stderr.write(`wrote ${output}\n`);
    return EXIT.ok;
  }
  return withServices(env, { queue: false }, async (services) => {
    const body =
      format === 'aa' ? await campaignAaExport(services.db, id) : await campaignAttemptsExport(services.db, id, format);
    if (body === null) return noSuchCampaign(id);
    await recordAudit(services.db, cliActor(), {
      action: 'campaign.export',
      target: { type: 'campaign', id },
      detail: { format },
    });
    await writeOut(typeof body === 'string' ? [body] : body, output);
    if (output) process.stderr.write(`wrote ${output}\n`);
    return EXIT.ok;
  });
}
