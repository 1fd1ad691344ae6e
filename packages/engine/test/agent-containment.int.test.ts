import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Fixture } from '@gitbench/core';
import type { DockerSandboxDriver } from '@gitbench/sandbox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildFixtureRepository, executeAttempt, type BuiltSnapshot } from '../src';
import { cleanFixture } from './agent/support/clean-fixture';
import { scriptedAgent } from './agent/support/scripted-agent';
import { useTestDriver } from './test-driver';

/**
 * A hostile agent through the real loop: its tool calls are validated, run one at a time in the
 * attempt's session with the agent's limits, capped and recorded, exactly as a model's would be. It
 * tries to delete everything, fork-bomb, reach the network, sleep forever, detach a child, flood the
 * output, kill its own runner and read a file too large to hold, while an oracle attempt on the same
 * fixture runs beside it. The bystander must pass, the host's canary must survive, every limit must
 * stop what it should, what is stored must be capped, and the hostile attempt must end as the agent's
 * own outcome (scored), never as an infrastructure failure that would be retried and excluded.
 */
const LIMITS = { commandTimeoutMs: 8_000, maxToolOutputBytes: 16 * 1024, maxWallMs: 180_000, maxTurns: 30 };

let driver: DockerSandboxDriver;
useTestDriver('agent-hostile', (d) => (driver = d));
let fixture: Fixture;
let snapshot: BuiltSnapshot;
let hostDir: string;

beforeAll(async () => {
  fixture = cleanFixture('containment', 'git clean -f junk.txt');
  snapshot = await buildFixtureRepository(fixture, driver);
  hostDir = await mkdtemp(join(tmpdir(), 'gitbench-hostile-agent-'));
  await writeFile(join(hostDir, 'canary'), 'still here');
});
afterAll(async () => {
  if (hostDir) await rm(hostDir, { recursive: true, force: true });
});

const HOSTILE = [
  ':(){ :|:& };:',
  `(exec 3<>/dev/tcp/1.1.1.1/80) 2>&1; getent hosts example.com || echo no-dns; ls /sys/class/net`,
  'sleep infinity',
  `setsid sh -c 'echo out > /tmp/escaped; exec sleep 1000' & ` +
    `while [ ! -s /tmp/escaped ]; do sleep 0.05; done; echo detached`,
  'head -c 3G /dev/zero | tr "\\0" x',
  'kill -9 -1; pkill -9 python3; echo still-running',
  'dd if=/dev/zero of=/work/big bs=1M count=200 2>&1 | tail -1',
  'read_file ../big',
  'echo alive; n=0; for p in /proc/[0-9]*; do n=$((n+1)); done; echo "$n processes"',
  // Last: with the workspace gone, later commands have no directory to run in, yet still get an answer.
  `rm -rf --no-preserve-root ~ /work HOSTDIR / 2>/dev/null; ls -A /work | wc -l; test -x /usr/bin/git && echo intact`,
  'echo after',
];

describe('a hostile agent', () => {
  it(
    'is contained: the host and a concurrent attempt are untouched, ' +
      'limits stop it, output is capped, and it ends as its own outcome',
    async () => {
      const network: string[] = [];
      const hostile = scriptedAgent(
        'hostile',
        HOSTILE.map((c) => c.replace('HOSTDIR', hostDir)),
        async () => {
          // While it works, its container keeps --network none.
          const [c] = await driver.docker.listContainers({
            filters: { label: ['org.gitbench.attempt=hostile-agent'] },
          });
          if (c) network.push((await driver.docker.getContainer(c.Id).inspect()).HostConfig.NetworkMode ?? '');
        },
      );
      const before = process.memoryUsage().rss;
      const started = performance.now();
      const [bad, good] = await Promise.all([
        executeAttempt({
          fixture,
          snapshot,
          driver,
          model: hostile,
          modelName: 'hostile',
          mode: 'agent',
          agent: { config: { toolSet: 'bash+editor', limits: LIMITS } },
          labels: { 'org.gitbench.attempt': 'hostile-agent' },
        }),
        executeAttempt({
          fixture,
          snapshot,
          driver,
          model: { name: 'oracle', complete: () => Promise.reject(new Error('agent mode only')) },
          modelName: 'oracle',
          mode: 'agent',
          agent: { config: { limits: LIMITS } },
          labels: { 'org.gitbench.attempt': 'bystander-agent' },
        }),
      ]);
      const wallMs = performance.now() - started;
      console.log(
        `hostile agent: ${bad.agent?.steps.length} steps in ${(wallMs / 1000).toFixed(1)} s, ` +
          `exit ${bad.agent?.summary.exitStatus} (${bad.agent?.summary.exitDetail ?? ''}); bystander ${good.status}`,
      );

      // The bystander attempt passed, and the host's file is still there.
      expect(good.passed, JSON.stringify(good.errorMessage)).toBe(true);
      expect(await readFile(join(hostDir, 'canary'), 'utf8')).toBe('still here');
      expect(network.length).toBeGreaterThan(0);
      expect(new Set(network)).toEqual(new Set(['none']));

      // The hostile agent ran every call and submitted: nothing it did ended its own session.
      const agent = bad.agent!;
      expect(agent.summary.exitStatus).toBe('submitted');
      expect(bad.errorClass).toBeNull();
      expect(bad.passed).toBe(false); // it deleted the repository it was asked to clean
      const results = agent.steps.map((s) => s.results[0]!);
      expect(results).toHaveLength(HOSTILE.length + 1);
      const [bomb, net, sleep, detached, flood, kill, dd, big, alive, wiped, after] = results;
      expect(bomb!.durationMs).toBeLessThan(15_000);
      expect(net!.output).toContain('no-dns');
      // The only interface is loopback; the bash tool's output ends with the command's exit code.
      expect(net!.output.trim().split('\n').slice(-2)).toEqual(['lo', '[exit code 0]']);
      expect(sleep).toMatchObject({ timedOut: true });
      expect(sleep!.durationMs).toBeLessThan(LIMITS.commandTimeoutMs + 4_000);
      expect(detached!.output).toContain('detached');
      expect(detached!.durationMs).toBeLessThan(LIMITS.commandTimeoutMs + 4_000);
      // Gigabytes of output: what the model saw and what is stored is capped; the size is recorded.
      expect(flood!.output.length).toBeLessThanOrEqual(LIMITS.maxToolOutputBytes + 200);
      expect(flood!.outputBytes).toBeGreaterThan(1024 * 1024);
      expect(flood!.truncatedBytes).toBeGreaterThan(0);
      expect(kill!.output).toContain('still-running');
      expect(dd!.exitCode).toBe(0);
      // A file too large to read is the agent's error, told to it; the session goes on.
      expect(big).toMatchObject({ isError: true });
      expect(big!.output).toMatch(/more than/);
      expect(alive!.output).toContain('alive');
      expect(wiped!.output).toMatch(/^0\nintact/);
      expect(after!.output).toMatch(/cannot enter/);
      for (const r of results) expect(r.output.length).toBeLessThanOrEqual(LIMITS.maxToolOutputBytes + 200);
      expect(process.memoryUsage().rss - before).toBeLessThan(512 * 1024 * 1024);

      // Both sandboxes are gone.
      const left = await driver.docker.listContainers({ all: true, filters: { label: ['org.gitbench.attempt'] } });
      expect(
        left.filter((c) => ['hostile-agent', 'bystander-agent'].includes(c.Labels['org.gitbench.attempt'] ?? '')),
      ).toEqual([]);
    },
    240_000,
  );
});

describe('cancelling an agent attempt', () => {
  it('mid-command removes its sandbox within 2 s and ends the attempt unscored', async () => {
    const label = `cancel-${process.pid}`;
    const gone = async () =>
      (await driver.docker.listContainers({ all: true, filters: { label: [`org.gitbench.attempt=${label}`] } }))
        .length === 0;
    const abort = new AbortController();
    let cancelledAt = 0;
    // The agent looks around once, then starts a command that would run for ten minutes.
    const agent = scriptedAgent('hostile', ['git status --short', 'sleep 600'], async (turn) => {
      if (turn === 2) throw new Error('the agent should not get another turn');
    });
    const running = executeAttempt({
      fixture,
      snapshot,
      driver,
      model: agent,
      modelName: 'slow',
      mode: 'agent',
      agent: {
        config: { toolSet: 'bash', limits: { ...LIMITS, commandTimeoutMs: 600_000 } },
        onStep: (step) => {
          // The second step is recorded only when its command ends; cancel while it runs.
          if (step.index === 0)
            setTimeout(() => ((cancelledAt = performance.now()), abort.abort(new Error('campaign cancelled'))), 500);
        },
      },
      labels: { 'org.gitbench.attempt': label },
      signal: abort.signal,
    });
    const run = await running;
    const returnedMs = performance.now() - cancelledAt;
    while (!(await gone())) {
      if (performance.now() - cancelledAt > 10_000) break;
      await new Promise((r) => setTimeout(r, 20));
    }
    const goneMs = performance.now() - cancelledAt;
    console.log(
      `cancel mid-agent (engine): the attempt returned ${returnedMs.toFixed(0)} ` +
        `ms and its sandbox was gone ${goneMs.toFixed(0)} ms after the abort`,
    );
    // Not a quality outcome: the worker records it as cancelled (or gives it back at shutdown).
    expect(run.passed).toBeNull();
    expect(run.errorClass).toMatch(/abort|cancel/);
    expect(goneMs).toBeLessThan(2_000);
    expect(returnedMs).toBeLessThan(2_000);
  }, 60_000);
});
