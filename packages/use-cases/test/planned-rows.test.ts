import { describe, expect, it } from 'vitest';
import type { Db } from '@gitbench/db';
import { PlannedRows } from '../src/attempts/planned-rows';

/** A database that counts the snapshot reads it is asked for. */
function countingDb() {
  const reads: string[] = [];
  const db = {
    fixtureSnapshot: {
      findUniqueOrThrow: async ({ where }: { where: { id: string } }) => {
        reads.push(where.id);
        return { definition: { id: 'read' }, inputHash: 'h-read', repoState: 's-read', buildInfo: { from: 'db' } };
      },
    },
  } as unknown as Db;
  return { db, reads };
}

describe('PlannedRows', () => {
  it('serves a snapshot planning primed without reading it, as the database would give it back', async () => {
    const { db, reads } = countingDb();
    const rows = new PlannedRows(db);
    const at = new Date('2026-01-02T03:04:05.000Z');
    rows.prime('fxs_1', { id: 'f1' }, { inputHash: 'h1', repoState: 's1', buildInfo: { at, gone: undefined, n: 1 } });
    const snap = await rows.snapshot('fxs_1');
    expect(reads).toEqual([]);
    expect(snap).toEqual({
      fixture: { id: 'f1' },
      inputHash: 'h1',
      repoState: 's1',
      buildInfo: { at: '2026-01-02T03:04:05.000Z', n: 1 },
    });
    // Another snapshot is still read, once for concurrent readers.
    const [a, b] = await Promise.all([rows.snapshot('fxs_2'), rows.snapshot('fxs_2')]);
    expect(reads).toEqual(['fxs_2']);
    expect(a).toBe(b);
    expect(a.inputHash).toBe('h-read');
  });
});
