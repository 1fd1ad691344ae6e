import { writeFile } from 'node:fs/promises';
import { trajectoryAtif } from '@gitbench/db';
import { choiceFlag, intFlag, onlyFlags, parseArgs, stringFlag, UsageError } from '../args';
import { CampaignApi } from '../campaign/api-client';
import { readCliEnv, type CliEnv } from '../env';
import { EXIT } from '../sandbox-driver';
import { withServices } from '../services';

export const TRAJECTORY_USAGE = 'usage: gitbench trajectory export <attempt id> [--format atif] [--try N] [--output FILE]';
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
async function trajectoryExportCommand(argv: string[], env: CliEnv): Promise<number> {
  const args = parseArgs(argv, ['format', 'try', 'output']);
  onlyFlags(args, ['format', 'try', 'output']);
  const id = args.positionals[0];
  if (!id || args.positionals.length > 1 || !/^[A-Za-z0-9_-]{1,100}$/.test(id)) throw new UsageError(TRAJECTORY_USAGE);
  choiceFlag(args, 'format', FORMATS);
  const tryNumber = args.flags.has('try') ? intFlag(args, 'try', 1) : undefined;
  const output = stringFlag(args, 'output');
  const api = CampaignApi.fromEnv(env);
  if (api) {
    const res = await api.raw('GET', `/api/attempts/${id}/trajectory.atif.json${tryNumber !== undefined ? `?try=${tryNumber}` : ''}`);
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

export async function trajectoryCommand(argv: string[]): Promise<number> {
  const [sub, ...rest] = argv;
  if (sub !== 'export') throw new UsageError(TRAJECTORY_USAGE);
  return trajectoryExportCommand(rest, readCliEnv());
}
