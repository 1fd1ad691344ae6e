import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import * as core from '../src/index';
import * as figures from '../src/figures';

const SRC = path.resolve(import.meta.dirname, '../src');

/** Every module figures.ts loads, following its imports and re-exports (type-only ones load nothing). */
function reach(entry: string): { modules: Set<string>; packages: Set<string> } {
  const modules = new Set<string>();
  const packages = new Set<string>();
  const visit = (file: string) => {
    if (modules.has(file)) return;
    modules.add(file);
    const source = readFileSync(file, 'utf8');
    for (const m of source.matchAll(/^(?:import|export)\s+(type\s+)?(?:[^'";]*?\sfrom\s+)?'([^']+)';/gms)) {
      if (m[1]) continue;
      const spec = m[2]!;
      if (spec.startsWith('.')) visit(path.resolve(path.dirname(file), `${spec}.ts`));
      else packages.add(spec);
    }
  };
  visit(entry);
  return { modules, packages };
}

describe('@gitbench/core/figures', () => {
  it("loads no package but Node's own: no zod, no yaml, nothing of the rest of core's weight", () => {
    const { modules, packages } = reach(path.join(SRC, 'figures.ts'));
    expect([...packages].filter((p) => !p.startsWith('node:'))).toEqual([]);
    // The walk follows the re-exports: a broken walk would pass the check above vacuously.
    expect([...modules].map((m) => path.relative(SRC, m))).toEqual(
      expect.arrayContaining(['aggregation/target-figures.ts', 'aggregation/series.ts', 'canonical-json.ts']),
    );
  });

  it('exports what the whole of core exports under the same names', () => {
    for (const [name, value] of Object.entries(figures)) expect(core[name as keyof typeof core]).toBe(value);
  });
});
