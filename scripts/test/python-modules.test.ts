import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { PYTHON_MODULES, pythonText, renderPythonModule, SENT_FROM } from '../lib/python-modules';

const root = path.resolve(import.meta.dirname, '../..');
const read = (file: string) => readFileSync(path.join(root, file), 'utf8');

describe('Python sent into sandboxes', () => {
  for (const entry of PYTHON_MODULES) {
    it(`${entry.module} holds the text of ${entry.source} (else run npm run python:generate)`, async () => {
      expect(read(entry.module)).toBe(renderPythonModule(entry, read(entry.source)));
      const mod = (await import(path.join(root, entry.module))) as Record<string, string>;
      expect(mod[entry.name]).toBe(pythonText(read(entry.source)));
    });
  }

  it('sends what follows the marker line only', () => {
    expect(pythonText(`# what it does\nout = None\n${SENT_FROM}\n\nimport os\n# kept\nx = 1\n`)).toBe(
      '\nimport os\n# kept\nx = 1\n',
    );
    expect(() => pythonText('import os\n')).toThrow(/marks where the text sent starts/);
  });
});
