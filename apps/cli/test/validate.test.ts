import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ParsedArgs } from '../src/args';
import { validateCommand } from '../src/commands/validate';
import { EXIT } from '../src/exit';

const fixture = (id: string, difficulty: string) =>
  [
    `id: ${id}`,
    'description: Tag the release',
    `difficulty: ${difficulty}`,
    'setup: [git init]',
    'prompt: Tag HEAD as v1.',
    'expected: git tag v1',
    'scoring: {type: exact_match}',
    '',
  ].join('\n');
const item = (fixtureId: string, numerator: number, denominator: number, targets: number) => ({
  domain: 'tag_management',
  fixtureId,
  targets,
  passRate: { numerator, denominator },
});

let root: string;
beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'gitbench-validate-'));
  await mkdir(join(root, 'tag_management'));
  await writeFile(join(root, 'tag_management', 'f001.yaml'), fixture('f001', 'easy'));
  await writeFile(join(root, 'tag_management', 'f002.yaml'), fixture('f002', 'hard'));
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

async function validate(...flags: string[]): Promise<{ code: number; out: string }> {
  const chunks: string[] = [];
  const spy = vi.spyOn(process.stdout, 'write').mockImplementation((c) => (chunks.push(String(c)), true));
  try {
    const args: ParsedArgs = { positionals: [root], flags: new Map(flags.map((f) => [f, true])), lists: new Map() };
    return { code: await validateCommand(args), out: chunks.join('') };
  } finally {
    spy.mockRestore();
  }
}

describe('gitbench validate with a calibration record', () => {
  it('says nothing of difficulty without one', async () => {
    const r = await validate();
    expect(r.code).toBe(EXIT.ok);
    expect(r.out).toMatch(
      /^2 valid fixture\(s\), 0 invalid file\(s\), 2 file\(s\) read(; \d+ warning\(s\), shown with --strict)?\n$/,
    );
  });

  it('warns where the measured pass rate disagrees with the label, and still passes', async () => {
    // f001 easy but 1/9 passed over 3 targets; f002 hard and 2/9: agrees.
    await writeFile(
      join(root, 'calibration.json'),
      JSON.stringify({
        suite: 'x',
        obtainedAt: '2026-11-27T15:00:00Z',
        campaigns: [],
        items: [item('f001', 1, 9, 3), item('f002', 2, 9, 3)],
      }),
    );
    const r = await validate();
    expect(r.code).toBe(EXIT.ok);
    expect(r.out.replace(/; \d+ warning\(s\), shown with --strict/, '')).toBe(
      "warning: tag_management/f001: difficulty 'easy' disagrees with its measured pass rate 11% (1/9 scored " +
        "attempts over 3 targets, measured 2026-11-27): 'easy' expects at least 70%; the measure reads hard\n" +
        '2 valid fixture(s), 0 invalid file(s), 2 file(s) read; calibration.json 1 of 2 difficulty label(s) judged ' +
        'disagree\n',
    );
    const json = JSON.parse((await validate('json')).out);
    expect(json.calibration.disagreements.map((d: { fixtureId: string }) => d.fixtureId)).toEqual(['f001']);
  });

  it('says a record of one player judges no label, counts its trials and names fixtures the suite lacks', async () => {
    const trial = (passed: boolean) => ({
      calibrator: null,
      session: '2026-11-29',
      passed,
      steps: 9,
      wallSeconds: 40,
      source: 'stop 45, table',
    });
    await writeFile(
      join(root, 'calibration.json'),
      JSON.stringify({
        suite: 'x',
        campaigns: [],
        items: [
          { ...item('f001', 1, 2, 1), trials: [trial(true), trial(false)] },
          { ...item('f009', 1, 1, 1), trials: [trial(true)] },
        ],
      }),
    );
    const r = await validate();
    expect(r.code).toBe(EXIT.ok);
    expect(r.out.replace(/; \d+ warning\(s\), shown with --strict/, '')).toBe(
      `warning: ${join(root, 'calibration.json')}: lists tag_management/f009, which the suite does not hold\n` +
        '2 valid fixture(s), 0 invalid file(s), 2 file(s) read; calibration.json judges no difficulty label: ' +
        'a verdict needs 3 targets, and none of its 2 measured fixture(s) has them, ' +
        '2 of 3 calibration trial(s) passed\n',
    );
  });

  it('fails on a record it cannot read, naming the field', async () => {
    await writeFile(
      join(root, 'calibration.json'),
      JSON.stringify({ suite: 'x', campaigns: [], items: [{ domain: 'd' }] }),
    );
    const r = await validate();
    expect(r.code).toBe(EXIT.failed);
    expect(r.out).toContain('calibration.json: items.0.fixtureId:');
  });
});
