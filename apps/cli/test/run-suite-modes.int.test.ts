import { cpSync, existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { EXIT } from '../src/exit';
import { gitbench, ROOT } from './cli-process';

/**
 * A suite's modes (suite.yaml's `modes`) in the CLI: `gitbench run` and `gitbench campaign create` refuse a mode
 * the suite's tasks are not built for, as a usage error naming the suite.yaml, its modes field and the mode, before
 * a model or a sandbox is opened. A mode it lists runs; selfcheck and validate, which score the fixtures' own
 * references and negatives and no model, check every fixture as before.
 */
if (!process.env.GITBENCH_SANDBOX_IMAGE)
  throw new Error('GITBENCH_SANDBOX_IMAGE must be set (scripts/test.sh sets it)');
const tmp = mkdtempSync(path.join(tmpdir(), 'gitbench-cli-suite-modes-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const suite = path.join(tmp, 'suite');
cpSync(path.join(ROOT, 'fixtures/git_grep/f001.yaml'), path.join(suite, 'git_grep/f001.yaml'));
const manifest = (modes: string) => writeFileSync(path.join(suite, 'suite.yaml'), `version: 1.0.0\nmodes: ${modes}\n`);
const refusal = (file: string, allowed: string, asked: string) =>
  `${file}: modes: this suite's tasks are built for the ${allowed} mode only, not for ${asked}`;

describe('the hard tier, built for agent attempts only', () => {
  it('is refused as single answers by gitbench run, whichever flag asks for them', { timeout: 120_000 }, async () => {
    const out = path.join(tmp, 'guesses.json');
    const one = ['--model', 'nop', '--id', 'bisection/click-b12'];
    const asked = [
      [['--mode', 'text', '--json-output', out], '--mode text', 'text'],
      [['--output-mode', 'json_schema'], '--output-mode json_schema', 'json_schema'],
      [['--mode', 'both'], '--mode both', 'text'],
      [[], '--mode text (the default)', 'text'],
    ] as const;
    for (const [flags, flag, mode] of asked) {
      const r = await gitbench(['run', 'fixtures/hard', ...one, ...flags]);
      expect(r.code, r.stderr).toBe(EXIT.usage);
      expect(r.stderr).toBe(`gitbench run: ${flag}: ${refusal('fixtures/hard/suite.yaml', 'agent', mode)}\n`);
      expect(r.stdout).toBe('');
    }
    expect(existsSync(out)).toBe(false);
  });

  it('is refused as a single-answer campaign by gitbench campaign create, on the outputModes field', async () => {
    const create = (mode: string) =>
      gitbench([
        'campaign',
        'create',
        '--name',
        'x',
        '--fixtures',
        'fixtures/hard',
        '--model',
        'nop',
        ...mode.split(' '),
        '--dry-run',
      ]);
    const text = await create('--output-mode text');
    expect(text.code).toBe(EXIT.usage);
    expect(JSON.parse(text.stderr)).toEqual({
      formErrors: [],
      fieldErrors: { outputModes: [refusal('fixtures/hard/suite.yaml', 'agent', 'text')] },
    });
    const agent = await create('--mode agent');
    expect(agent.code, agent.stderr).toBe(EXIT.ok);
    expect(agent.stdout).toMatch(/^would run \d+ attempt\(s\): 1 target\(s\) × \d+ fixture\(s\)/);
  });
});

describe('a suite that lists its modes', () => {
  it('runs in a mode it lists and refuses another, naming its suite.yaml', { timeout: 300_000 }, async () => {
    manifest('[text]');
    const text = await gitbench(['run', suite, '--mode', 'text', '--model', 'oracle']);
    expect(text.code, text.stderr).toBe(EXIT.ok);
    expect(text.stderr).toMatch(/git_grep\/f001 text trial 1: PASS/);
    const agent = await gitbench(['run', suite, '--mode', 'agent', '--model', 'oracle']);
    expect(agent.code).toBe(EXIT.usage);
    expect(agent.stderr).toBe(`gitbench run: --mode agent: ${refusal(`${suite}/suite.yaml`, 'text', 'agent')}\n`);
  });

  it(
    'is still checked by selfcheck and validate in every mode, neither running a model',
    { timeout: 300_000 },
    async () => {
      manifest('[agent]');
      const selfcheck = await gitbench(['selfcheck', suite]);
      expect(selfcheck.code, selfcheck.stderr).toBe(EXIT.ok);
      expect(selfcheck.stdout).toMatch(/1 fixture\(s\), 1 run\(s\) each: 1 passed/);
      const validate = await gitbench(['validate', suite]);
      expect(validate.code, validate.stderr).toBe(EXIT.ok);
    },
  );

  it('refuses a run in any mode when its suite.yaml does not load: it cannot say its modes', async () => {
    manifest('[agent, chat]');
    const r = await gitbench(['run', suite, '--mode', 'text', '--model', 'oracle']);
    expect(r.code).toBe(EXIT.usage);
    expect(r.stderr).toContain(
      `--mode text: ${suite}/suite.yaml:2: modes[1]: must be one of text, json_schema, agent ` +
        '(its modes cannot be read)',
    );
  });
});
