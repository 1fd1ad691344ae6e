import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ConfigurationError } from '@gitbench/core';
import { loadReplayIndex, replaySourcesFromEnv } from '../src/replay-sources';
import { ProviderRegistry } from '../src/registry';
import { UPSTREAM_RESULTS } from '../../core/test/fixtures/upstream-data';

// A replay directory holding one real result file, a symbolic link out of it, a FIFO and a file
// that is not JSON (its first characters must never reach a message).
const root = mkdtempSync(join(tmpdir(), 'gitbench-replay-'));
const dir = join(root, 'replays');
mkdirSync(dir);
const resultFile = readdirSync(UPSTREAM_RESULTS).find((f) => f.includes('_text_'))!;
writeFileSync(join(dir, 'run.json'), readFileSync(join(UPSTREAM_RESULTS, resultFile)));
writeFileSync(join(root, 'outside.json'), readFileSync(join(UPSTREAM_RESULTS, resultFile)));
symlinkSync('/etc/passwd', join(dir, 'passwd.json'));
symlinkSync(join(root, 'outside.json'), join(dir, 'escape.json'));
symlinkSync('/dev/zero', join(dir, 'zero.json'));
writeFileSync(join(dir, 'secret.json'), 'TOPSECRET-CONTENT not json');
execFileSync('mkfifo', [join(dir, 'fifo.json')]);
afterAll(() => rmSync(root, { recursive: true, force: true }));

const sources = { dirs: [dir], maxBytes: 1024 * 1024 };
const registry = new ProviderRegistry({ replay: sources });

/** The refusal, checked to name neither the path asked for, nor the host's directories, nor any content. */
async function refused(source: string): Promise<string> {
  const error = (await registry.resolve({ model: `replay:${source}` }).catch((e: unknown) => e)) as Error;
  expect(error).toBeInstanceOf(ConfigurationError);
  for (const leak of [source, root, dir, '/etc', 'root:', 'TOPSECRET', 'passwd', 'Unexpected token']) {
    if (leak !== '') expect(error.message).not.toContain(leak);
  }
  return error.message;
}

describe('replay reads only from the configured directories', () => {
  it('loads a result file inside a configured directory, by relative or absolute path', async () => {
    expect((await loadReplayIndex('run.json', sources)).all().length).toBeGreaterThan(0);
    expect((await loadReplayIndex(join(dir, 'run.json'), sources)).files).toEqual(['run.json']);
  });

  it.each([
    '/etc/passwd',
    '../..',
    '..',
    '/dev/zero',
    '/proc/self/environ',
    `../outside.json`,
    join(root, 'outside.json'),
    join(root, 'absent.json'),
    'a/../../b.json',
  ])(
    'refuses replay:%s as outside the directories, from the path ' +
      'as written, with a message that names no path or content',
    async (source) => {
      expect(await refused(source)).toBe(
        'The replay source lies outside the configured replay directories (GITBENCH_REPLAY_DIRS).',
      );
    },
  );

  it.each(['absent.json', join(dir, 'absent.json'), 'sub/absent.json'])(
    'says replay:%s does not exist in the directories',
    async (source) => {
      expect(await refused(source)).toBe(
        'The replay source does not exist in the configured replay directories (GITBENCH_REPLAY_DIRS).',
      );
    },
  );

  it('refuses symbolic links out of the directory, devices and FIFOs, without blocking or reading them', async () => {
    for (const name of ['passwd.json', 'escape.json', 'zero.json'])
      expect(await refused(name)).toMatch(/lies outside the configured replay directories/);
    const started = Date.now();
    expect(await refused('fifo.json')).toMatch(/not a readable result file/);
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it('says a file is not JSON without quoting it, and caps the size read', async () => {
    expect(await refused('secret.json')).toBe('The replay source is not valid JSON.');
    writeFileSync(join(dir, 'big.json'), Buffer.alloc(2 * 1024 * 1024, 32));
    expect(await refused('big.json')).toMatch(/larger than 1048576 bytes \(GITBENCH_REPLAY_MAX_BYTES\)/);
  });

  it('names a source by position when several are given', async () => {
    expect(await refused('run.json,/etc/passwd')).toMatch(/^Replay source 2 of 2 lies outside/);
    expect(await refused('run.json,absent.json')).toMatch(/^Replay source 2 of 2 does not exist/);
  });

  it('takes its directories from GITBENCH_REPLAY_DIRS, else the upstream results', () => {
    expect(replaySourcesFromEnv({ GITBENCH_REPLAY_DIRS: `/a:rel`, GITBENCH_REPLAY_MAX_BYTES: '10' }, '/w')).toEqual({
      dirs: ['/a', '/w/rel'],
      maxBytes: 10,
    });
    expect(replaySourcesFromEnv({ GITBENCH_UPSTREAM_DIR: '/u' }, '/w').dirs).toEqual(['/u/results']);
  });
});

describe('recorded costs of a replay, for the estimate before launch', () => {
  it('are what each recorded answer cost, from the configured directories only; other models have none', async () => {
    const envelope = JSON.parse(readFileSync(join(dir, 'run.json'), 'utf8')) as {
      results: { benchmark: string; scores: { fixture_id: string; cost_usd?: number }[] }[];
    };
    const first = envelope.results[0]!;
    const costOf = (await registry.recordedCosts('replay:run.json'))!;
    expect(costOf(first.benchmark, first.scores[0]!.fixture_id, 'text')).toBe(first.scores[0]!.cost_usd);
    expect(costOf(first.benchmark, 'no-such-fixture', 'text')).toBeNull();
    expect(await registry.recordedCosts('mock')).toBeUndefined();
    await expect(registry.recordedCosts('replay:../outside.json')).rejects.toBeInstanceOf(ConfigurationError);
  });
});
