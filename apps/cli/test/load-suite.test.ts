import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadSuite } from '../src/load-suite';

const fixture = (id: string, negatives: number) =>
  [
    `id: ${id}`,
    'description: Tag the release',
    'purpose: Lightweight tag on HEAD.',
    'difficulty: easy',
    'tags: [tag]',
    'setup: [git init]',
    'prompt: Tag HEAD as v1.',
    'expected: git tag v1',
    'scoring: {type: exact_match}',
    'negatives:',
    ...Array.from({ length: negatives }, (_, i) => `  - {answer: git tag v${i + 2}, why: wrong name}`),
    '',
  ].join('\n');

let root: string;
beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'gitbench-suite-'));
  await mkdir(join(root, 'tag_management'));
  await writeFile(join(root, 'suite.yaml'), 'version: 2.1.0\nrules:\n  min_negatives: 2\n');
  await writeFile(join(root, 'tag_management', 'f001.yaml'), fixture('f001', 2));
  await writeFile(join(root, 'tag_management', 'f002.yaml'), fixture('f002', 1));
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

describe('loading a suite from disk', () => {
  it('reads the version and applies the rules of suite.yaml, which is not a fixture', async () => {
    const suite = await loadSuite(root);
    expect(suite.manifest?.version).toBe('2.1.0');
    expect(suite.files).toBe(2);
    expect(suite.fixtures.map((f) => `${f.domain}/${f.id}`)).toEqual(['tag_management/f001']);
    expect(suite.errors).toEqual([expect.objectContaining({ file: 'tag_management/f002.yaml', field: 'negatives' })]);
  });

  it('keeps the domain and the rules when given one domain folder', async () => {
    const suite = await loadSuite(join(root, 'tag_management'));
    expect(suite.manifest?.version).toBe('2.1.0');
    expect(suite.fixtures.map((f) => f.domain)).toEqual(['tag_management']);
    expect(suite.errors.map((e) => e.file)).toEqual(['tag_management/f002.yaml']);
  });

  it('reads suite.yaml’s modes, naming the file under the directory given (a domain folder’s parent)', async () => {
    expect((await loadSuite(root)).modes).toBeUndefined();
    await writeFile(join(root, 'suite.yaml'), 'version: 2.1.0\nmodes: [agent]\n');
    expect((await loadSuite(root)).modes).toEqual({ file: join(root, 'suite.yaml'), allowed: ['agent'] });
    expect((await loadSuite(`${root}/tag_management/`)).modes).toEqual({
      file: join(root, 'suite.yaml'),
      allowed: ['agent'],
    });
  });

  it('reports a broken suite.yaml as an error', async () => {
    await writeFile(join(root, 'suite.yaml'), 'version: next\n');
    const suite = await loadSuite(root);
    expect(suite.manifest).toBeNull();
    expect(suite.errors).toEqual([expect.objectContaining({ file: 'suite.yaml', field: 'version' })]);
    expect(suite.fixtures).toHaveLength(2);
  });
});
