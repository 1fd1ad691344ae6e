/**
 * Part of `npm run demo`: makes sure someone can sign in. On the first run (no user at all) it creates
 * the demo admin with a generated password, kept owner-only in .gitbench/demo-admin.json; later runs
 * print the same sign-in. Where users exist already, it says how to get in instead of adding one.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { createAuth, createUser } from '@gitbench/auth';
import { createDb } from '@gitbench/db';

const EMAIL = 'admin@gitbench.local';
const stateDir = process.env.GITBENCH_STATE_DIR ?? path.resolve(import.meta.dirname, '../.gitbench');
const file = path.join(stateDir, 'demo-admin.json');
const baseUrl = process.argv[2] ?? 'http://127.0.0.1:3000';
const say = (message: string) => console.log(`[gitbench] ${message}`);

const db = createDb({
  databaseUrl: process.env.DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/gitbench',
  maxConnections: 2,
});
try {
  const saved = existsSync(file)
    ? (JSON.parse(readFileSync(file, 'utf8')) as { email: string; password: string })
    : null;
  const demoAdmin = await db.user.findUnique({ where: { email: EMAIL }, select: { id: true } });
  if (saved && demoAdmin) {
    say(`sign in at ${baseUrl}/sign-in as ${saved.email} with password ${saved.password}`);
  } else if ((await db.user.count()) === 0) {
    const password = randomBytes(12).toString('base64url');
    await createUser(createAuth({ db, secretKey: randomBytes(32).toString('base64') }), {
      email: EMAIL,
      name: 'Demo admin',
      password,
      role: 'admin',
    });
    writeFileSync(file, `${JSON.stringify({ email: EMAIL, password })}\n`, { mode: 0o600 });
    say(`first run: created the demo admin. Sign in at ${baseUrl}/sign-in as ${EMAIL} with password ${password}`);
    say(
      `(kept in ${path.relative(process.cwd(), file)}; add people on the ` +
        `Users page or with: npx gitbench user create --email ... --role member)`,
    );
  } else {
    say(
      `sign in at ${baseUrl}/sign-in with your account; a new password ` +
        `for one: npx gitbench user create --email <email> --reset-password`,
    );
  }
} finally {
  await db.$disconnect();
}
