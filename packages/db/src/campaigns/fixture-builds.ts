import type { Db } from '../client';
import type { Prisma } from '../generated/prisma/client';

/** A built fixture repository as planning stores it, keyed by the engine's fixtureBuildKey. */
export interface StoredFixtureBuild {
  key: string;
  domain: string;
  fixtureId: string;
  inputHash: string;
  repoState: string;
  repoArchive: Buffer;
  setupLog: string;
  buildInfo: Prisma.InputJsonValue;
}

/** Earlier builds with these keys; found ones are marked used, so a clean-up can drop the stale. */
export async function findFixtureBuilds(db: Db, keys: string[]): Promise<Map<string, StoredFixtureBuild>> {
  if (keys.length === 0) return new Map();
  const rows = await db.fixtureBuild.findMany({ where: { key: { in: keys } } });
  if (rows.length > 0) await db.fixtureBuild.updateMany({ where: { key: { in: rows.map((r) => r.key) } }, data: { lastUsedAt: new Date() } });
  return new Map(
    rows.map((r) => [
      r.key,
      { ...r, repoArchive: Buffer.from(r.repoArchive), buildInfo: r.buildInfo as Prisma.InputJsonValue },
    ]),
  );
}

/** Stores new builds; a build stored meanwhile by another planner under the same key is kept. */
export async function saveFixtureBuilds(db: Db, builds: StoredFixtureBuild[]): Promise<void> {
  if (builds.length === 0) return;
  await db.fixtureBuild.createMany({
    data: builds.map((b) => ({ ...b, repoArchive: new Uint8Array(b.repoArchive) })),
    skipDuplicates: true,
  });
}
