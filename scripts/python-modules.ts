/** Writes the TypeScript module of every .py file core sends into a sandbox (see lib/python-modules.ts). */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { PYTHON_MODULES, renderPythonModule } from './lib/python-modules';

const root = path.resolve(import.meta.dirname, '..');
for (const entry of PYTHON_MODULES) {
  const rendered = renderPythonModule(entry, readFileSync(path.join(root, entry.source), 'utf8'));
  const target = path.join(root, entry.module);
  let current: string | undefined;
  try {
    current = readFileSync(target, 'utf8');
  } catch {
    current = undefined;
  }
  if (current === rendered) continue;
  writeFileSync(target, rendered);
  console.log(`wrote ${entry.module}`);
}
