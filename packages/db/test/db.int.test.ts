import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '@gitbench/core';
import { applyMigrations, snapshotSchema } from '../src';
import { createTestDatabase, dropSchema, MIGRATIONS_DIR, runSql, type TestDatabase } from '@gitbench/test-support';
import { mkdtemp, mkdir, writeFile, cp } from 'node:fs/promises';
import os from 'node:os';

const DATABASE_URL = process.env.DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/gitbench';
const ROOT = path.resolve(MIGRATIONS_DIR, '../..');

let t: TestDatabase;
beforeAll(async () => {
  t = await createTestDatabase(DATABASE_URL);
});
afterAll(async () => {
  await t?.drop();
});

describe('Prisma on Postgres through the pg driver adapter', () => {
  it('round-trips a campaign with a target', async () => {
    const id = newId('campaign');
    await t.db.campaign.create({
      data: {
        id,
        name: 'round trip',
        createdBy: 'test',
        config: { models: ['oracle'], trials: 3 },
        configHash: 'a'.repeat(64),
        seed: 7,
        suiteVersion: '1.0.0',
        trials: 3,
        targets: {
          create: {
            id: newId('target'),
            modelId: 'oracle',
            baseModel: 'oracle',
            outputMode: 'text',
            profile: 'builtin',
          },
        },
      },
    });
    const read = await t.db.campaign.findUniqueOrThrow({ where: { id }, include: { targets: true } });
    expect(read.config).toEqual({ models: ['oracle'], trials: 3 });
    expect(read.status).toBe('PLANNING');
    expect(read.targets).toHaveLength(1);
    expect(read.targets[0]?.outputMode).toBe('text');
  });
});

describe('migrations', () => {
  it('re-running is a no-op and reports every migration as already applied', async () => {
    const report = await applyMigrations({
      databaseUrl: DATABASE_URL,
      migrationsDir: MIGRATIONS_DIR,
      schema: t.schema,
    });
    expect(report.applied).toEqual([]);
    expect(report.alreadyApplied.length).toBeGreaterThan(0);
  });

  it('refuses a migration edited after it was applied', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'gb-mig-'));
    await cp(MIGRATIONS_DIR, dir, { recursive: true });
    const first = (await import('node:fs'))
      .readdirSync(dir)
      .filter((n) => !n.endsWith('.toml'))
      .sort()[0]!;
    await writeFile(path.join(dir, first, 'migration.sql'), '-- edited\nSELECT 1;');
    await expect(applyMigrations({ databaseUrl: DATABASE_URL, migrationsDir: dir, schema: t.schema })).rejects.toThrow(
      /edited after it was applied/,
    );
  });

  it('rolls back a failing migration completely and records nothing', async () => {
    const schema = `t_fail_${Date.now()}`;
    const dir = await mkdtemp(path.join(os.tmpdir(), 'gb-mig-'));
    await mkdir(path.join(dir, '001_ok'));
    await writeFile(path.join(dir, '001_ok', 'migration.sql'), 'CREATE TABLE a (x int);');
    await mkdir(path.join(dir, '002_bad'));
    await writeFile(path.join(dir, '002_bad', 'migration.sql'), 'CREATE TABLE b (x int); SELECT no_such_function();');
    try {
      await expect(applyMigrations({ databaseUrl: DATABASE_URL, migrationsDir: dir, schema })).rejects.toThrow(
        /002_bad failed and was rolled back/,
      );
      const snapshot = await snapshotSchema(DATABASE_URL, schema);
      expect(snapshot.some((l) => l.startsWith('column a.x'))).toBe(true);
      expect(snapshot.some((l) => l.startsWith('column b.x'))).toBe(false);
    } finally {
      await dropSchema(DATABASE_URL, schema);
    }
  });

  it('produce exactly the schema that prisma/schema.prisma describes', async () => {
    // The datamodel's own SQL, printed offline by the Wasm schema engine.
    const sql = execFileSync(
      'bash',
      [
        path.join(ROOT, 'scripts/prisma.sh'),
        'migrate',
        'diff',
        '--from-empty',
        '--to-schema-datamodel',
        path.join(ROOT, 'prisma/schema.prisma'),
        '--script',
      ],
      {
        cwd: ROOT,
        encoding: 'utf8',
        env: { ...process.env, DATABASE_URL },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    const fromDatamodel = `t_dm_${Date.now()}`;
    try {
      await runSql(DATABASE_URL, fromDatamodel, sql);
      const expected = await snapshotSchema(DATABASE_URL, fromDatamodel);
      const migrated = await snapshotSchema(DATABASE_URL, t.schema);
      expect(migrated).toEqual(expected);
      expect(expected.length).toBeGreaterThan(50);
    } finally {
      await dropSchema(DATABASE_URL, fromDatamodel);
    }
  });

  it('the live database (DATABASE_URL, public schema) matches the committed migrations', async () => {
    // The main job migrates `public`; if someone changed it by hand, this fails.
    const live = await snapshotSchema(DATABASE_URL, 'public');
    const migrated = await snapshotSchema(DATABASE_URL, t.schema);
    expect(live).toEqual(migrated);
  });
});
