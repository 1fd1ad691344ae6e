import { randomBytes } from 'node:crypto';
import { createAuth, createUser, setPassword, UserError } from '@gitbench/auth';
import { ROLES, type Role } from '@gitbench/core';
import { choiceFlag, stringFlag, UsageError, type ParsedArgs } from '../args';
import { readCliEnv } from '../env';
import { EXIT } from '../exit';
import { withServices } from '../services';

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks)
    .toString('utf8')
    .replace(/\r?\n$/, '');
}

/**
 * `gitbench user create`: an account from a shell on the server (the first admin, or any user). The
 * password is read from stdin with --password-stdin, else generated and printed once. With
 * --reset-password an existing user gets the new password instead of an error.
 */
export async function userCreateCommand(args: ParsedArgs): Promise<number> {
  const email = stringFlag(args, 'email');
  if (!email) throw new UsageError('--email is required (see gitbench user create --help)');
  const asked = choiceFlag(args, 'role', ROLES);
  if (asked && args.flags.has('admin') && asked !== 'admin') throw new UsageError('--admin and --role disagree');
  const roleAsked = asked !== undefined || args.flags.has('admin');
  const role: Role = args.flags.has('admin') ? 'admin' : (asked ?? 'viewer');
  const generated = !args.flags.has('password-stdin');
  const password = generated ? randomBytes(15).toString('base64url') : await readStdin();
  const name = stringFlag(args, 'name') ?? email.split('@')[0]!;
  return withServices(readCliEnv(), { queue: false }, async ({ db }) => {
    // Only the hasher and the adapter are used: nothing here signs a cookie, so any secret does.
    const auth = createAuth({ db, secretKey: randomBytes(32).toString('base64') });
    const existing = await db.user.findUnique({
      where: { email: email.trim().toLowerCase() },
      select: { id: true, role: true },
    });
    let result: { id: string; email: string; role: string; created: boolean };
    try {
      if (existing) {
        if (!args.flags.has('reset-password'))
          throw new UserError(`a user ${email} exists already (add --reset-password to give it a new password)`);
        await setPassword(auth, db, email, password);
        // The role changes only when one is asked for; a password reset alone keeps it.
        const kept = roleAsked ? role : existing.role;
        if (kept !== existing.role) await db.user.update({ where: { id: existing.id }, data: { role: kept } });
        result = { id: existing.id, email: email.trim().toLowerCase(), role: kept, created: false };
      } else {
        result = { ...(await createUser(auth, { email, name, password, role })), created: true };
      }
    } catch (err) {
      if (err instanceof UserError) {
        process.stderr.write(`gitbench user create: ${err.message}\n`);
        return EXIT.usage;
      }
      throw err;
    }
    if (args.flags.has('json')) {
      process.stdout.write(`${JSON.stringify({ ...result, ...(generated ? { password } : {}) }, null, 2)}\n`);
    } else {
      process.stdout.write(`${result.created ? 'created' : 'updated'} ${result.role} ${result.email} (${result.id})\n`);
      if (generated) process.stdout.write(`password: ${password}\n(shown once; sign in and keep it somewhere safe)\n`);
    }
    return EXIT.ok;
  });
}

export async function userListCommand(args: ParsedArgs): Promise<number> {
  return withServices(readCliEnv(), { queue: false }, async ({ db }) => {
    const users = await db.user.findMany({
      orderBy: { createdAt: 'asc' },
      select: { id: true, email: true, name: true, role: true, banned: true, createdAt: true },
    });
    if (args.flags.has('json')) process.stdout.write(`${JSON.stringify(users, null, 2)}\n`);
    else
      for (const u of users)
        process.stdout.write(`${u.role.padEnd(6)}  ${u.email}  ${u.name}${u.banned ? '  (banned)' : ''}\n`);
    return EXIT.ok;
  });
}
