import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadSuiteDir, readSuiteCalibration, SuiteDirError, type SuiteCache } from '../src';

const FIXTURE = (id: string) =>
  [
    `id: ${id}`,
    'description: d',
    'difficulty: easy',
    'tags: []',
    'setup: [git init -q]',
    'prompt: p',
    'expected: e',
    'scoring: {type: exact_match}',
    '',
  ].join('\n');

function suite(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'gitbench-suite-'));
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(dir, path, '..'), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  return dir;
}

describe('loadSuiteDir', () => {
  it("reads every fixture below the directory and suite.yaml's version", async () => {
    const dir = suite({
      'suite.yaml': '# comment\nversion: 2.1.0\n',
      'log/f001.yaml': FIXTURE('f001'),
      'log/f002.yml': FIXTURE('f002'),
      'log/README.md': 'no',
    });
    const loaded = await loadSuiteDir(dir);
    expect(loaded.fixtures.map((f) => `${f.domain}/${f.id}`)).toEqual(['log/f001', 'log/f002']);
    expect(loaded).toMatchObject({ dir, files: 2, errors: [], version: '2.1.0', versionSource: 'suite.yaml' });
  });

  it(
    'with a cache, parses again only when a byte of the suite ' +
      'changed: a fixture, suite.yaml, an asset or a new file',
    async () => {
      const dir = suite({
        'suite.yaml': 'version: 1.0.0\n',
        'log/f001.yaml': `${FIXTURE('f001')}files:\n  - {asset: _assets/a.txt, to: a.txt}\n`,
        '_assets/a.txt': 'a\n',
      });
      const cache: SuiteCache = new Map();
      const first = await loadSuiteDir(dir, cache);
      expect(first.errors).toEqual([]);
      expect(await loadSuiteDir(dir, cache)).toBe(first);
      const changes: [string, string][] = [
        [
          'log/f001.yaml',
          `${FIXTURE('f001').replace('prompt: p', 'prompt: q')}files:\n  - {asset: _assets/a.txt, to: a.txt}\n`,
        ],
        ['suite.yaml', 'version: 2.0.0\n'],
        ['_assets/a.txt', 'b\n'],
        ['log/f002.yaml', FIXTURE('f002')],
      ];
      let last = first;
      for (const [path, text] of changes) {
        writeFileSync(join(dir, path), text);
        const next = await loadSuiteDir(dir, cache);
        expect(next, path).not.toBe(last);
        expect(await loadSuiteDir(dir, cache), path).toBe(next);
        last = next;
      }
      expect(last.errors).toEqual([]);
      expect(last.fixtures.map((f) => f.id)).toEqual(['f001', 'f002']);
      expect(last.fixtures[0]?.files?.[0]).toMatchObject({ base64: Buffer.from('b\n').toString('base64') });
      expect(last.version).toBe('2.0.0');
    },
  );

  it('reads calibration.json with the suite, again when it alone changes, and says why one is unreadable', async () => {
    const dir = suite({ 'suite.yaml': 'version: 1.0.0\n', 'log/f001.yaml': FIXTURE('f001') });
    const cache: SuiteCache = new Map();
    expect((await loadSuiteDir(dir, cache)).calibration).toBeNull();
    const item = { domain: 'log', fixtureId: 'f001', targets: 1, passRate: { numerator: 1, denominator: 1 } };
    writeFileSync(join(dir, 'calibration.json'), JSON.stringify({ suite: 's', campaigns: [], items: [item] }));
    const loaded = await loadSuiteDir(dir, cache);
    expect(loaded.calibration).toEqual({
      file: join(dir, 'calibration.json'),
      record: { suite: 's', campaigns: [], items: [item] },
    });
    expect(await readSuiteCalibration(dir)).toEqual(loaded.calibration);
    writeFileSync(join(dir, 'calibration.json'), '{"suite": "s"}');
    const broken = `${join(dir, 'calibration.json')}: campaigns: Invalid input: expected array, received undefined`;
    expect((await loadSuiteDir(dir, cache)).calibration).toEqual({
      file: join(dir, 'calibration.json'),
      error: broken,
    });
  });

  it('names an unversioned suite by its content, which changes with any fixture', async () => {
    const a = await loadSuiteDir(suite({ 'log/f001.yaml': FIXTURE('f001') }));
    const b = await loadSuiteDir(suite({ 'log/f001.yaml': FIXTURE('f001') }));
    const c = await loadSuiteDir(suite({ 'log/f001.yaml': FIXTURE('f001').replace('prompt: p', 'prompt: q') }));
    expect(a.version).toMatch(/^unversioned-[0-9a-f]{12}$/);
    expect(a).toMatchObject({ version: b.version, versionSource: 'content' });
    expect(c.version).not.toBe(a.version);
  });

  it('reports invalid files, suite.yaml included, with file, line and field', async () => {
    const dir = suite({
      'suite.yaml': 'name: x\nversion: [1]\n',
      'log/f001.yaml': FIXTURE('f001'),
      'log/f002.yaml': FIXTURE('f002').replace('setup: [git init -q]', 'setup: git init -q'),
    });
    const loaded = await loadSuiteDir(dir);
    expect(loaded.fixtures).toHaveLength(1);
    // suite.yaml first: an unknown key is refused too, so a typo in `rules` cannot go unnoticed.
    expect(loaded.errors.map((e) => [e.file, e.line, e.field])).toEqual([
      ['suite.yaml', 2, 'version'],
      ['suite.yaml', 1, 'name'],
      ['log/f002.yaml', 5, 'setup'],
    ]);
    expect(loaded.versionSource).toBe('content');
  });

  it(
    'loads what upstream loads: unknown difficulty as ' + 'unspecified, several fixtures in one file, an empty file',
    async () => {
      const dir = suite({
        'log/f001.yaml': FIXTURE('f001').replace('difficulty: easy', 'difficulty: brutal'),
        'log/many.yaml': ['f002', 'f003'].map((id) => `- ${FIXTURE(id).trim().replace(/\n/g, '\n  ')}\n`).join(''),
        'log/empty.yaml': '# nothing yet\n',
      });
      const loaded = await loadSuiteDir(dir);
      expect(loaded.errors).toEqual([]);
      expect(loaded.fixtures.map((f) => [f.id, f.difficulty, f.sourcePath])).toEqual([
        ['f001', 'unspecified', 'log/f001.yaml'],
        ['f002', 'easy', 'log/many.yaml'],
        ['f003', 'easy', 'log/many.yaml'],
      ]);
      expect(loaded.warnings.map((w) => [w.file, w.line, w.field])).toEqual(
        expect.arrayContaining([
          ['log/empty.yaml', 1, ''],
          ['log/f001.yaml', 3, 'difficulty'],
          ['log/many.yaml', 1, '[0].purpose'],
        ]),
      );
    },
  );

  it('applies the rules of suite.yaml, also when given one domain folder, whose name stays the domain', async () => {
    const dir = suite({
      'suite.yaml': 'version: 1.0.0\nrules: {min_negatives: 1}\n',
      'log/f001.yaml': `${FIXTURE('f001')}negatives:\n  - {answer: x, why: wrong}\n`,
      'log/f002.yaml': FIXTURE('f002'),
    });
    for (const loaded of [await loadSuiteDir(dir), await loadSuiteDir(join(dir, 'log'))]) {
      expect(loaded.fixtures.map((f) => `${f.domain}/${f.id}`)).toEqual(['log/f001']);
      expect(loaded.errors.map((e) => [e.file, e.field])).toEqual([['log/f002.yaml', 'negatives']]);
      expect(loaded).toMatchObject({ dir, version: '1.0.0', manifest: { version: '1.0.0' } });
    }
  });

  it('leaves a subdirectory with its own suite.yaml to that suite, which reads its own assets', async () => {
    const dir = suite({
      'suite.yaml': 'version: 2.0.0\n',
      'log/f001.yaml': FIXTURE('f001'),
      'tasks/suite.yaml': 'version: 1.0.0\n',
      'tasks/image/t01.yaml': `${FIXTURE('t01')}files:\n  - {asset: _assets/in.md, to: input/in.md}\n`,
      'tasks/_assets/in.md': '# notes',
    });
    const outer = await loadSuiteDir(dir);
    expect(outer.fixtures.map((f) => `${f.domain}/${f.id}`)).toEqual(['log/f001']);
    expect(outer).toMatchObject({ errors: [], files: 1, version: '2.0.0' });
    const inner = await loadSuiteDir(join(dir, 'tasks'));
    expect(inner).toMatchObject({ errors: [], files: 1, version: '1.0.0' });
    expect(inner.fixtures[0]?.files?.[0]).toMatchObject({
      asset: '_assets/in.md',
      to: 'input/in.md',
      base64: Buffer.from('# notes').toString('base64'),
    });
  });

  it('refuses a path that is not a directory', async () => {
    await expect(loadSuiteDir('/nonexistent/suite')).rejects.toBeInstanceOf(SuiteDirError);
  });

  it('loads our own suite with no error and no --strict warning', async () => {
    const loaded = await loadSuiteDir(join(import.meta.dirname, '../../../fixtures'));
    expect(loaded.errors).toEqual([]);
    expect(loaded.warnings).toEqual([]);
    expect(loaded.fixtures.length).toBeGreaterThan(200);
  });
});
