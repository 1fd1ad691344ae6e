import { writeFile } from 'node:fs/promises';
import { trajectoryAtif } from '@gitbench/db';
import { choiceFlag, intFlag, stringFlag, UsageError, type ParsedArgs } from '../args';
import { CampaignApi } from '../campaign/api-client';
import type { CliEnv } from '../env';
import { EXIT } from '../exit';
import { withServices } from '../services';

const FORMATS = ['atif'] as const;

async function write(text: string, output: string | undefined) {
  if (output) {
    await writeFile(output, text);
    process.stderr.write(`wrote ${output}\n`);
  } else process.stdout.write(text);
}

function noTrajectory(id: string): number {
  process.stderr.write(`attempt ${id} has no trajectory (not an agent attempt, or no such attempt)\n`);
  return EXIT.failed;
}

/**
 * `gitbench trajectory export <attempt id> --format atif`: an agent attempt's trajectory as ATIF v1.4
 * JSON (Harbor / Terminal-Bench), through the web API with GITBENCH_URL and GITBENCH_TOKEN, else
 * from the database, with the same converter either way.
 */
export async function trajectoryExportCommand(args: ParsedArgs, env: CliEnv): Promise<number> {
  const id = args.positionals[0]!;
  if (!/^[A-Za-z0-9_-]{1,100}$/.test(id)) throw new UsageError(`'${id}' is not an attempt id`);
  choiceFlag(args, 'format', FORMATS);
  const tryNumber = args.flags.has('try') ? intFlag(args, 'try', 1) : undefined;
  const output = stringFlag(args, 'output');
  const api = CampaignApi.fromEnv(env);
  if (api) {
    const res = await api.raw(
      'GET',
      `/api/attempts/${id}/trajectory.atif.json${tryNumber !== undefined ? `?try=${tryNumber}` : ''}`,
    );
    if (res.status === 404) return noTrajectory(id);
    if (!res.ok) {
      process.stderr.write(`export failed: HTTP ${res.status}\n`);
      return EXIT.failed;
    }
    await write(`${JSON.stringify(await res.json(), null, 2)}\n`, output);
    return EXIT.ok;
  }
  return withServices(env, { queue: false }, async (services) => {
    const atif = await trajectoryAtif(services.db, id, tryNumber);
    if (!atif) return noTrajectory(id);
    await write(`${JSON.stringify(atif, null, 2)}\n`, output);
    return EXIT.ok;
  });
}
