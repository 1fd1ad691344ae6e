import { rawQuery, type Db } from '../client';
import type { Prisma } from '../generated/prisma/client';
import { unpackArchive } from './archive';

/** What planning needs of a stored build; the archive stays in the database until an attempt reads it. */
export interface FixtureBuildFacts {
  key: string;
  inputHash: string;
  repoState: string;
  setupLog: string;
  buildInfo: Prisma.InputJsonValue;
}

/** A new build as planning stores it, keyed by the engine's fixtureBuildKey. */
export interface NewFixtureBuild extends FixtureBuildFacts {
  domain: string;
  fixtureId: string;
  /** The workspace's tar archive, plain or gzip-compressed already; stored compressed. */
  tar: Buffer;
}

/** Earlier builds with these keys; found ones are marked used, so a clean-up can drop the stale. */
export async function findFixtureBuilds(db: Db, keys: string[]): Promise<Map<string, FixtureBuildFacts>> {
  if (keys.length === 0) return new Map();
  const rows = await db.fixtureBuild.findMany({
    where: { key: { in: keys } },
    select: { key: true, inputHash: true, repoState: true, setupLog: true, buildInfo: true },
  });
  if (rows.length > 0)
    await db.fixtureBuild.updateMany({
      where: { key: { in: rows.map((r) => r.key) } },
      data: { lastUsedAt: new Date() },
    });
  return new Map(rows.map((r) => [r.key, { ...r, buildInfo: r.buildInfo as Prisma.InputJsonValue }]));
}

/**
 * The workspace archive of a planned snapshot, from the shared build or the snapshot's own copy.
 * Read only by attempts that start a sandbox: most attempts are scored on text and never need it.
 */
export async function loadSnapshotArchive(db: Db, snapshotId: string): Promise<Buffer> {
  // One statement on the pool (rawQuery): Prisma's relation read is two, and costs the worker more
  // CPU than both, once per sandboxed attempt.
  const {
    rows: [row],
  } = await rawQuery<{ archive: Uint8Array | null }>(
    db,
    `SELECT COALESCE(s."repoArchive", b."repoArchive") AS archive
       FROM "FixtureSnapshot" s LEFT JOIN "FixtureBuild" b ON b.key = s."buildKey"
      WHERE s.id = $1::text`,
    [snapshotId],
  );
  const stored = row?.archive;
  if (!stored) throw new Error(`fixture snapshot ${snapshotId} has no repository archive`);
  return unpackArchive(stored);
}
