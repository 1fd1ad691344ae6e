import { createAuth, createUser, setPassword } from '@gitbench/auth';
import { ROLES } from '@gitbench/core';
import { createDb } from '@gitbench/db';
import { E2E_USERS } from './users';

// Run by global-setup as `node --import tsx e2e/seed-users.ts`: one user per role, with a known
// password, whether or not an earlier run created them.
const db = createDb({
  databaseUrl: process.env.DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/gitbench',
  maxConnections: 2,
});
const auth = createAuth({
  db,
  secretKey: process.env.GITBENCH_SECRET_KEY ?? 'e2e seeding signs no cookie: any secret will do',
});
for (const role of ROLES) {
  const user = E2E_USERS[role];
  const existing = await db.user.findUnique({ where: { email: user.email } });
  if (existing) {
    await setPassword(auth, db, user.email, user.password);
    await db.user.update({ where: { id: existing.id }, data: { role, banned: false } });
  } else await createUser(auth, { ...user, role });
}
await db.$disconnect();
console.log(`e2e users ready: ${ROLES.map((r) => E2E_USERS[r].email).join(', ')}`);
