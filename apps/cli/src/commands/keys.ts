import { recordAudit, rotateProviderKeys } from '@gitbench/db';
import { cliActor } from '../campaign/cli-actor';
import { UsageError, type ParsedArgs } from '../args';
import { readCliEnv } from '../env';
import { EXIT } from '../exit';
import { withServices } from '../services';

export const KEYS_USAGE =
  `usage: GITBENCH_OLD_SECRET_KEY=<previous secret> ` +
  `GITBENCH_SECRET_KEY=<new secret> gitbench keys rotate [--json]`;

/**
 * `gitbench keys rotate`: after GITBENCH_SECRET_KEY changes, re-encrypts every stored provider key
 * from the previous secret (GITBENCH_OLD_SECRET_KEY) to the new one, in one transaction. Keys are
 * opened only in this process and never printed.
 */
export async function keysRotateCommand(args: ParsedArgs): Promise<number> {
  const oldSecret = process.env['GITBENCH_OLD_SECRET_KEY'];
  const newSecret = process.env['GITBENCH_SECRET_KEY'];
  if (!oldSecret || !newSecret || newSecret.length < 32)
    throw new UsageError(`set both secrets (the new one at least 32 characters)\n${KEYS_USAGE}`);
  return withServices(readCliEnv(), { queue: false }, async ({ db }) => {
    const result = await rotateProviderKeys(db, oldSecret, newSecret);
    await recordAudit(db, cliActor(), {
      action: 'key.set',
      target: { type: 'provider_key', id: null },
      detail: { rotated: result.rotated, already: result.already },
    });
    process.stdout.write(
      args.flags.has('json')
        ? `${JSON.stringify(result)}\n`
        : `re-encrypted ${result.rotated} stored key(s) under the new secret (${result.already} already were)\n`,
    );
    return EXIT.ok;
  });
}
