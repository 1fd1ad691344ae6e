import { execFileSync } from 'node:child_process';
import {
  closeSync,
  constants,
  copyFileSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readdirSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CampaignConfigErrors } from '@gitbench/core';
import type { PlanJob } from '@gitbench/db';
import { createTestDatabase, type TestDatabase } from '@gitbench/test-support';
import { ProviderRegistry } from '@gitbench/providers';
import type { JobName, JobPayload } from '@gitbench/queue';
import { createCampaign, type CreateCampaignDeps } from '@gitbench/use-cases';
import { campaignDeps } from '../src/campaign/campaign-deps';
import { gitbench, UPSTREAM } from './cli-process';

/**
 * Replay targets are opened when a campaign is created, by the loader a worker uses, and a campaign
 * naming one that cannot be replayed is refused with its field, its source as written and the reason,
 * and nothing written. Real Postgres (a schema of this file's own); the CLI shares the same check.
 */
const DATABASE_URL = process.env.DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/gitbench';
const FIXTURES = path.join(UPSTREAM, 'fixtures');
const RESULTS = path.join(UPSTREAM, 'results');
const root = mkdtempSync(path.join(tmpdir(), 'gitbench-replaycheck-'));
const dir = path.join(root, 'replays');

const atif = {
  schema_version: 'ATIF-v1.4',
  agent: { name: 'gitbench', model_name: 'acme/agent' },
  steps: [
    { step_id: 1, source: 'user', message: 'task' },
    {
      step_id: 2,
      source: 'agent',
      message: '',
      tool_calls: [{ tool_call_id: 'c1', function_name: 'submit', arguments: { answer: 'x' } }],
    },
  ],
};

let t: TestDatabase;
const queued: PlanJob[] = [];
const registry = new ProviderRegistry({ replay: { dirs: [dir], maxBytes: 1024 * 1024 } });
// The plan jobs sent, kept here instead of in Redis: this file checks what is refused before anything is written.
const queue = {
  enqueue: async <N extends JobName>(_name: N, job: JobPayload<N>) => {
    queued.push(job as PlanJob);
    return 'queued';
  },
};
const deps = (): CreateCampaignDeps => ({ ...campaignDeps(registry), db: t.db, queue });
const actor = { userId: null, email: 'test@localhost', via: 'cli' } as const;

beforeAll(async () => {
  mkdirSync(dir);
  const text = readdirSync(RESULTS).find((f) => f.includes('_text_'))!;
  copyFileSync(path.join(RESULTS, text), path.join(dir, 'run.json'));
  copyFileSync(path.join(RESULTS, text), path.join(root, 'outside.json'));
  writeFileSync(path.join(dir, 'trajectory.atif.json'), JSON.stringify(atif));
  writeFileSync(
    path.join(dir, 'broken.atif.json'),
    JSON.stringify({ schema_version: 'ATIF-v1.4', steps: 'SECRET-CONTENT' }),
  );
  writeFileSync(path.join(dir, 'notes.json'), JSON.stringify({ hello: 'SECRET-CONTENT' }));
  writeFileSync(path.join(dir, 'text.json'), 'SECRET-CONTENT, not JSON');
  symlinkSync(path.join(root, 'outside.json'), path.join(dir, 'escape.json'));
  execFileSync('mkfifo', [path.join(dir, 'fifo.json')]);
  t = await createTestDatabase(DATABASE_URL, 'replaycheck');
});
afterAll(async () => {
  await t?.drop();
  rmSync(root, { recursive: true, force: true });
});

const config = (model: string, outputModes: string[] = ['text']) => ({
  name: `replay ${model}`,
  createdBy: 'test',
  models: ['mock', model],
  outputModes,
  fixtures: { suiteDir: FIXTURES, domains: ['blame_forensics'] },
  trials: 1,
});

/** The refusal of `replay:<source>` as the second model: only models.1 is named, and no row is written. */
/** Whether some process holds the FIFO open for reading: only then does a non-blocking write end open. */
function hasReader(fifo: string): boolean {
  try {
    closeSync(openSync(fifo, constants.O_WRONLY | constants.O_NONBLOCK));
    return true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENXIO') return false;
    throw err;
  }
}

async function refused(source: string, outputModes?: string[]): Promise<string> {
  const before = await t.db.campaign.count();
  const result = await createCampaign(deps(), config(`replay:${source}`, outputModes), actor);
  expect(result.ok).toBe(false);
  const errors = (result as { errors: CampaignConfigErrors }).errors;
  expect(errors.formErrors).toEqual([]);
  expect(Object.keys(errors.fieldErrors)).toEqual(['models.1']);
  expect(await t.db.campaign.count()).toBe(before);
  expect(await t.db.campaignTarget.count()).toBe(0);
  const message = errors.fieldErrors['models.1']![0]!;
  // Nothing the caller did not write: no configured directory, no content.
  for (const leak of [root, dir, 'SECRET-CONTENT']) expect(message).not.toContain(leak);
  return message;
}

describe('campaign creation opens every replay target', () => {
  it('refuses a source that does not exist', async () => {
    expect(await refused('absent.json')).toBe(
      "models[1]: Replay source 'absent.json' does not exist in " +
        'the configured replay directories (GITBENCH_REPLAY_DIRS).',
    );
  });

  it('refuses a source outside the replay directories, by the path as written or through a symbolic link', async () => {
    const outside = 'lies outside the configured replay directories (GITBENCH_REPLAY_DIRS).';
    expect(await refused('/etc/passwd')).toBe(`models[1]: Replay source '/etc/passwd' ${outside}`);
    expect(await refused('../outside.json')).toBe(`models[1]: Replay source '../outside.json' ${outside}`);
    expect(await refused('escape.json')).toBe(`models[1]: Replay source 'escape.json' ${outside}`);
    expect(await refused('run.json,/nowhere/x.json')).toBe(`models[1]: Replay source '/nowhere/x.json' ${outside}`);
  });

  it('refuses a source that cannot be read as a file (a FIFO), without opening it', async () => {
    // A reader blocked on the FIFO is seen the moment it opens it (a write end then opens without
    // blocking): the refusal must come first, and leave no reader behind.
    const fifo = path.join(dir, 'fifo.json');
    let refusing = true;
    const watch = (async () => {
      while (refusing) {
        if (hasReader(fifo)) throw new Error('the refusal opened the FIFO for reading and waits on it');
        await new Promise((r) => setTimeout(r, 20));
      }
    })();
    const message = await Promise.race([refused('fifo.json'), watch.then(() => '')]).finally(() => (refusing = false));
    await watch;
    expect(message).toBe(
      "models[1]: Replay source 'fifo.json' is not a readable result file or " +
        'directory inside the configured replay directories (GITBENCH_REPLAY_DIRS).',
    );
    expect(hasReader(fifo)).toBe(false);
  });

  it('refuses a source that is neither a result file nor an ATIF trajectory', async () => {
    expect(await refused('text.json')).toBe("models[1]: Replay source 'text.json' is not valid JSON.");
    expect(await refused('notes.json')).toBe(
      "models[1]: Replay source 'notes.json' cannot be replayed: Replay file notes.json is not a GitBench result file.",
    );
    expect(await refused('broken.atif.json', ['agent'])).toMatch(
      new RegExp(
        /^models\[1\]: Replay source 'broken\.atif\.json' cannot be replayed: /.source +
          /Replay file broken\.atif\.json is not an ATIF v1 trajectory \(steps: /.source,
      ),
    );
  });

  it('refuses a source of the wrong kind for the output modes', async () => {
    expect(await refused('trajectory.atif.json', ['text'])).toBe(
      "models[1]: 'replay:trajectory.atif.json' holds only an ATIF trajectory, " +
        'which replays in the agent output mode alone; this campaign also runs text.',
    );
    expect(await refused('trajectory.atif.json', ['agent', 'json_schema'])).toMatch(
      /this campaign also runs json_schema\.$/,
    );
    expect(await refused('run.json', ['agent'])).toBe(
      "models[1]: 'replay:run.json' holds no ATIF trajectory, which the agent " +
        'output mode replays (a result file replays text and json_schema answers).',
    );
  });

  it('gives `gitbench campaign create` the same text, before any service is opened', async () => {
    const r = await gitbench(
      [
        'campaign',
        'create',
        '--name',
        'cli replay',
        '--model',
        'replay:absent.json',
        '--fixtures',
        FIXTURES,
        '--domain',
        'blame_forensics',
      ],
      {
        GITBENCH_REPLAY_DIRS: dir,
        GITBENCH_URL: undefined,
        DATABASE_URL: 'postgresql://postgres@127.0.0.1:1/unreachable',
      },
    );
    expect(r.code).not.toBe(0);
    expect(JSON.parse(r.stderr)).toEqual({
      formErrors: [],
      fieldErrors: {
        'models.0': [
          "models[0]: Replay source 'absent.json' does not exist in " +
            'the configured replay directories (GITBENCH_REPLAY_DIRS).',
        ],
      },
    });
  });

  it(
    'accepts a result file in text mode and an ATIF ' + 'trajectory in agent mode, by relative or absolute path',
    async () => {
      const before = queued.length;
      for (const [model, modes] of [
        ['replay:run.json', ['text']],
        [`replay:${path.join(dir, 'trajectory.atif.json')}`, ['agent']],
      ] as const) {
        const result = await createCampaign(deps(), config(model, [...modes]), actor);
        expect(result).toMatchObject({ ok: true, queued: true, targets: 2 });
        const campaignId = (result as { campaignId: string }).campaignId;
        expect((await t.db.campaignTarget.findMany({ where: { campaignId } })).map((x) => x.modelId).sort()).toEqual(
          ['mock', model].sort(),
        );
      }
      expect(queued.length - before).toBe(2);
    },
  );
});
