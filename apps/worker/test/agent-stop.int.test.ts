import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import type { Fixture } from '@gitbench/core';
import { markCampaignCancelled, listTrajectories, type Db } from '@gitbench/db';
import { CAMPAIGN_LABEL, DockerSandboxDriver } from '@gitbench/sandbox';
import { cleanFixture } from '../../../packages/engine/test/agent/support/clean-fixture';
import { campaignTestBed, finished, launch, waitFor, workerIdOf, type WorkerProcess } from './harness';

/**
 * Agent attempts on the real pipeline, stopped in the middle: a worker process started like
 * production runs the oracle agent on a fixture whose reference solution takes a while (it sleeps in
 * one of its tool calls), so there is a moment when the agent is known to be mid-loop (a step
 * recorded, the next command running in its sandbox).
 */
const image = process.env.GITBENCH_SANDBOX_IMAGE;
if (!image)
  throw new Error('GITBENCH_SANDBOX_IMAGE must be set for worker integration tests (scripts/test.sh sets it)');

const SLOW = 5;
// The oracle's reference sleeps in its second tool call: long enough to stop it there.
const fixtures: Fixture[] = [cleanFixture('slow_agent', `git status --short\nsleep ${SLOW}\ngit clean -f junk.txt`)];
const AGENT_CAMPAIGN = {
  models: ['oracle'],
  outputModes: ['agent'],
  trials: 1,
  fixtures: { suiteDir: 'test', ids: ['slow_agent/f001'] },
};

const bed = campaignTestBed('agent_stop');

const containersWith = (label: string) =>
  spawnSync('docker', ['ps', '-aq', '--filter', `label=${label}`], { encoding: 'utf8' })
    .stdout.split('\n')
    .filter(Boolean);

/** The campaign's one attempt, once its agent has recorded a step and is running the next command. */
async function midAgent(db: Db, campaignId: string, workers: WorkerProcess[]) {
  return waitFor(
    'the agent to be mid-loop',
    async () => {
      const attempt = await db.attempt.findFirst({ where: { campaignId, status: 'RUNNING' } });
      if (!attempt) return undefined;
      const [t] = (await listTrajectories(db, attempt.id)).filter((x) => x.status === 'running');
      return t && t.steps >= 1 && containersWith(`${CAMPAIGN_LABEL}=${campaignId}`).length > 0
        ? { attempt, trajectory: t }
        : undefined;
    },
    60_000,
    50,
  ).catch((err: Error) => {
    throw new Error(`${err.message}\n${workers.map((w) => w.output.join('').slice(-1500)).join('\n---\n')}`);
  });
}

async function timeUntilGone(label: string, timeoutMs = 30_000): Promise<number> {
  const t0 = performance.now();
  while (containersWith(label).length > 0) {
    if (performance.now() - t0 > timeoutMs)
      throw new Error(`the sandbox with ${label} was still there after ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 20));
  }
  return performance.now() - t0;
}

describe('an agent attempt stopped mid-loop', () => {
  it('cancel stops its sandbox within 2 s (as the cancel route does it, and by the worker alone)', async () => {
    const { queue, name } = bed.newQueue('agent-cancel');
    // The production heartbeat (an attempt beats every 2 s), so the worker-alone figure is the real one.
    const workers = await bed.startWorkers(1, name, {
      GITBENCH_HEARTBEAT_MS: '5000',
      GITBENCH_WORKER_CONCURRENCY: '1',
    });

    // The cancel route: the campaign row, then every sandbox carrying the campaign's label at once.
    const viaRoute = await launch(bed.t.db, queue, fixtures, { ...AGENT_CAMPAIGN, name: 'cancel via route' });
    const first = await midAgent(bed.t.db, viaRoute, workers);
    const t0 = performance.now();
    await markCampaignCancelled(bed.t.db, viaRoute);
    await new DockerSandboxDriver({ image }).removeByLabels({ [CAMPAIGN_LABEL]: viaRoute });
    const routeMs = performance.now() - t0 + (await timeUntilGone(`${CAMPAIGN_LABEL}=${viaRoute}`));

    // A web app on another host than the sandboxes: only the worker's heartbeat notices.
    const viaWorker = await launch(bed.t.db, queue, fixtures, { ...AGENT_CAMPAIGN, name: 'cancel via worker' });
    await midAgent(bed.t.db, viaWorker, workers);
    const t1 = performance.now();
    await markCampaignCancelled(bed.t.db, viaWorker);
    const workerMs = performance.now() - t1 + (await timeUntilGone(`${CAMPAIGN_LABEL}=${viaWorker}`));
    console.log(
      `cancel mid-agent: sandbox gone ${routeMs.toFixed(0)} ms after the cancel route's ` +
        `request, ${workerMs.toFixed(0)} ms after a cancel the worker alone noticed (attempt heartbeat 2 s)`,
    );
    expect(routeMs).toBeLessThan(2_000);
    expect(workerMs).toBeLessThan(2_000 + 1_500);

    for (const id of [viaRoute, viaWorker]) {
      const attempt = await waitFor(
        'the attempt to end cancelled',
        async () => {
          const a = await bed.t.db.attempt.findFirst({ where: { campaignId: id } });
          return a && a.status !== 'RUNNING' ? a : undefined;
        },
        30_000,
      );
      expect(attempt.status).toBe('CANCELLED');
      // The steps it took are kept: the trajectory is not deleted with the sandbox. It ends cancelled,
      // never sandbox_error, though the sandbox went before the worker knew (the route's way).
      const [t] = await listTrajectories(bed.t.db, attempt.id);
      expect(t?.steps).toBeGreaterThanOrEqual(1);
      expect(t?.exitStatus).toBe('cancelled');
    }
    expect(first.trajectory.steps).toBeGreaterThanOrEqual(1);
    await bed.stopAll();
  }, 180_000);

  it(
    'after kill -9 of its worker, the attempt runs again ' + 'cleanly: one final trajectory, the abandoned one kept',
    async () => {
      const { queue, name } = bed.newQueue('agent-kill');
      const [victim] = await bed.startWorkers(1, name, { GITBENCH_WORKER_CONCURRENCY: '1' });
      const campaignId = await launch(bed.t.db, queue, fixtures, { ...AGENT_CAMPAIGN, name: 'kill -9' });
      const { attempt } = await midAgent(bed.t.db, campaignId, [victim!]);
      await victim!.stop('SIGKILL');
      const victimId = workerIdOf(victim!);
      expect(containersWith(`org.gitbench.worker=${victimId}`).length).toBeGreaterThan(0);

      const killedAt = performance.now();
      const [rescuer] = await bed.startWorkers(1, name);
      await finished(bed.t.db, campaignId, [victim!, rescuer!], 120_000);
      const rerunS = (performance.now() - killedAt) / 1000;
      const done = await bed.t.db.attempt.findUniqueOrThrow({
        where: { id: attempt.id },
        include: { tries: { orderBy: { tryNumber: 'asc' } } },
      });
      expect(done.status).toBe('VALID_PASS');
      const trajectories = await listTrajectories(bed.t.db, attempt.id);
      const final = trajectories.filter((t) => t.status !== 'abandoned');
      const abandoned = trajectories.filter((t) => t.status === 'abandoned');
      expect(final).toHaveLength(1);
      expect(final[0]).toMatchObject({ status: 'finished', exitStatus: 'submitted' });
      expect(final[0]!.tryNumber).toBe(done.tries.at(-1)!.tryNumber);
      // The killed try's trajectory is kept as it was when its worker died, marked abandoned.
      expect(abandoned).toHaveLength(1);
      expect(abandoned[0]!.steps).toBeGreaterThanOrEqual(1);
      expect(abandoned[0]!.tryNumber).toBeLessThan(final[0]!.tryNumber);
      expect(abandoned[0]!.finishedAt).toBeNull();
      // The dead worker's sandbox is swept by the live one.
      await waitFor(
        "the killed worker's sandbox to be removed",
        async () => containersWith(`org.gitbench.worker=${victimId}`).length === 0,
        60_000,
        500,
      );
      console.log(
        `kill -9 mid-agent: the attempt finished ${rerunS.toFixed(1)} s after the kill, the dead ` +
          `worker's sandbox was swept ${((performance.now() - killedAt) / 1000).toFixed(1)} s after it`,
      );
      await bed.stopAll();
    },
    240_000,
  );
});
