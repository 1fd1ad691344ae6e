/**
 * `npm run bench:agent`'s part on third-party agents: for each adapted agent (its pinned version and
 * image first), the start from container to agent ready (the container is created and started, the
 * agent's configuration written, the agent started through the forwarder, until its first request
 * reaches the model gateway), p50 and p95 over RUNS starts; the memory of a running agent's sandbox
 * (the container's cgroup, page cache included, while the agent waits on a command the oracle gave it);
 * and how many such sandboxes one worker holds by memory.
 */
import { mkdtemp, rm, chmod } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import {
  AGENT_ADAPTERS,
  agentInvocation,
  GATEWAY_SOCKET_DIR,
  GATEWAY_SOCKET_NAME,
  type AgentAdapter,
} from '@gitbench/agents';
import { DEFAULT_AGENT_CONFIG } from '@gitbench/core';
import { openAgentTarget } from '@gitbench/engine';
import { startModelGateway } from '@gitbench/gateway';
import type { DockerSandboxDriver } from '@gitbench/sandbox';

const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MB`;

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}

/**
 * One run: ms from opening the session to the gateway's first call, and the container's memory while the agent waits.
 */
async function oneRun(
  adapter: AgentAdapter,
  driver: DockerSandboxDriver,
  labels: Record<string, string>,
): Promise<{ readyMs: number; memoryBytes: number | null }> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'gitbench-bench-gw-'));
  await chmod(dir, 0o755);
  let firstCall = 0;
  // The oracle's one command keeps the agent alive (in its own tool call) while its memory is read.
  const gateway = await startModelGateway({
    socketPath: path.join(dir, GATEWAY_SOCKET_NAME),
    backend: {
      kind: 'builtin',
      model: 'oracle',
      commands: ['sleep 4'],
      finalText: 'Done.',
      shellTool: adapter.shellTool,
    },
    budget: { maxCalls: 6 },
    beforeCall: async () => {
      firstCall ||= performance.now();
    },
  });
  const t0 = performance.now();
  const session = await driver.create({
    labels,
    mounts: [{ hostPath: dir, containerPath: GATEWAY_SOCKET_DIR, readOnly: true }],
  });
  try {
    await session.exec('git init -q repo');
    const inv = agentInvocation(adapter, {
      model: 'oracle',
      prompt: 'Run the one command you are given, then stop.',
      limits: DEFAULT_AGENT_CONFIG.limits,
      home: '/home/sandbox',
      workdir: '/work/repo',
    });
    for (const f of inv.files) await session.writeFile(f.path, f.content);
    const running = session.exec(inv.command, {
      cwd: 'repo',
      env: inv.env,
      timeoutMs: 180_000,
      maxOutputBytes: 64 * 1024,
    });
    let memoryBytes: number | null = null;
    // Read once the agent is in its tool call (its first call answered), as a worker would see it.
    for (let i = 0; i < 600 && !firstCall; i++) await new Promise((r) => setTimeout(r, 100));
    if (firstCall) {
      await new Promise((r) => setTimeout(r, 1500));
      const stats = (await driver.docker.getContainer(session.id).stats({ stream: false })) as {
        memory_stats?: { usage?: number };
      };
      memoryBytes = stats.memory_stats?.usage ?? null;
    }
    const r = await running;
    if (!firstCall)
      throw new Error(`${adapter.name} never reached the gateway (exit ${r.exitCode}): ${r.stderr.slice(-400)}`);
    return { readyMs: firstCall - t0, memoryBytes };
  } finally {
    await session.cleanup();
    await gateway.close();
    await rm(dir, { recursive: true, force: true });
  }
}

export async function benchThirdPartyAgents(opts: {
  sandboxImage: string;
  stateDir: string;
  labels: Record<string, string>;
  runs: number;
  agents?: string[];
}): Promise<void> {
  console.log(
    `\n## 4. Third-party agents: start (container to agent ready), memory per ` +
      `running sandbox, sandboxes one worker holds (${opts.runs} starts each)\n`,
  );
  const rows: string[] = [];
  for (const adapter of AGENT_ADAPTERS.filter((a) => !opts.agents || opts.agents.includes(a.name))) {
    const target = await openAgentTarget(adapter.name, {
      sandboxImage: opts.sandboxImage,
      stateDir: opts.stateDir,
      labels: opts.labels,
    });
    const driver = target.driver as DockerSandboxDriver;
    try {
      const ready: number[] = [];
      const memory: number[] = [];
      for (let i = 0; i < opts.runs; i++) {
        const r = await oneRun(adapter, driver, opts.labels);
        ready.push(r.readyMs);
        if (r.memoryBytes !== null) memory.push(r.memoryBytes);
      }
      const mem = memory.length ? percentile(memory, 50) : null;
      // Memory bounds what one machine holds; every sandbox may also use one core, so CPU bounds how many work at once.
      const held = mem ? Math.floor(os.totalmem() / mem) : null;
      rows.push(
        `${adapter.name.padEnd(12)} ${`${adapter.npmPackage}@${adapter.version}`.padEnd(40)} ` +
          `start p50 ${(percentile(ready, 50) / 1000).toFixed(1).padStart(5)} s  ` +
          `p95 ${(percentile(ready, 95) / 1000).toFixed(1).padStart(5)} s   memory ` +
          `p50 ${mem ? mb(mem).padStart(7) : '      —'}   held by memory ${held ?? '—'}   (${target.image})`,
      );
      console.log(rows.at(-1));
    } finally {
      await target.driver.close();
    }
  }
  console.log(
    `\nheld by memory: ${mb(os.totalmem())} of this machine over the running sandbox's memory; each ` +
      `sandbox may use one of ${os.cpus().length} cores, so CPU, not memory, bounds how many work at once.`,
  );
}
