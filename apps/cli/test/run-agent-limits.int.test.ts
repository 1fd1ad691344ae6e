import { cpSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { bash, toolReply } from '../../../packages/engine/test/agent/support/agent-server';
import { startFakeModelServer, type FakeModelServer } from '../../../packages/providers/test/support/fake-model-server';
import { EXIT } from '../src/exit';
import { gitbench, ROOT } from './cli-process';

/**
 * A suite's agent limits (suite.yaml's `agent` section) in `gitbench run --mode agent`: the loop stops
 * at them and the model is told them, a flag wins over them, and a bad value is refused naming the
 * file and the field. The model never submits, so every run ends at its turn limit.
 */
if (!process.env.GITBENCH_SANDBOX_IMAGE)
  throw new Error('GITBENCH_SANDBOX_IMAGE must be set (scripts/test.sh sets it)');
const tmp = mkdtempSync(path.join(tmpdir(), 'gitbench-cli-agent-limits-'));
let server: FakeModelServer | undefined;
afterAll(async () => server?.close());

const suite = path.join(tmp, 'suite');
cpSync(path.join(ROOT, 'fixtures/git_grep/f001.yaml'), path.join(suite, 'git_grep/f001.yaml'));
const manifest = (agent: string) => writeFileSync(path.join(suite, 'suite.yaml'), `version: 1.0.0\nagent:\n${agent}`);

async function run(flags: string[]) {
  server = await startFakeModelServer(() =>
    toolReply({ calls: [bash('git status --short')], usage: { prompt: 10, completion: 5 } }),
  );
  const profiles = path.join(tmp, 'gitbench.json');
  writeFileSync(
    profiles,
    JSON.stringify({ models: { relay: { models: ['acme/agent'], base_url: `${server.url}/v1` } } }),
  );
  const r = await gitbench(
    ['run', suite, '--mode', 'agent', '--tool-set', 'bash', '--model', 'acme/agent', '--json', ...flags],
    { GITBENCH_PROFILES: profiles },
  );
  const requests = server.requests.map((q) => (q.body as { messages: { role: string; content: string }[] }).messages);
  await server.close();
  server = undefined;
  return { r, requests };
}

describe('gitbench run --mode agent with a suite that sets agent limits', () => {
  it(
    'runs under the suite’s limits and tells the model them; a flag wins over the suite',
    { timeout: 300_000 },
    async () => {
      manifest('  max_turns: 2\n  max_wall_ms: 240000\n');
      const bySuite = await run([]);
      expect(bySuite.r.stderr).toMatch(/git_grep\/f001 agent trial 1: FAIL/);
      expect(bySuite.requests).toHaveLength(2);
      expect(bySuite.requests[0]![0]!.content).toContain(
        'You have at most 2 turns and 4 minutes in all (each reply is one ' +
          'turn, with its tool call); each command is stopped after 30 seconds.',
      );

      const byFlag = await run(['--max-turns', '3']);
      expect(byFlag.requests).toHaveLength(3);
      expect(byFlag.requests[0]![0]!.content).toContain('You have at most 3 turns and 4 minutes in all');
    },
  );

  it('refuses a suite.yaml whose agent limit is out of range, naming the file and the field', async () => {
    manifest('  max_turns: 501\n');
    const r = await gitbench(['run', suite, '--mode', 'agent', '--model', 'oracle']);
    expect(r.code).toBe(EXIT.usage);
    expect(r.stderr).toContain(`${suite}/suite.yaml:3: agent.max_turns: Allow at most 500 turns.`);
  });
});
