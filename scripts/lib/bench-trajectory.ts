import { performance } from 'node:perf_hooks';
import { newId } from '@gitbench/core';
import { type Db } from '@gitbench/db';
import { seedTrajectory } from '@gitbench/test-support';
import { getAttemptEvidence } from '../../apps/web/lib/queries/attempt';
import { getStepPart, getStepRange, getTrajectoryView, searchTrajectory } from '../../apps/web/lib/queries/trajectory';
import { STEP_PAGE } from '../../apps/web/lib/trajectory/view-model';

const STEPS = Number(process.env.BENCH_TRAJECTORY_STEPS ?? 500);
const OUTPUT_BYTES = Number(process.env.BENCH_TRAJECTORY_MB ?? 50) * 1e6;
const PAGE_TARGET_MS = 1_000;

async function sample(label: string, runs: number, fn: () => Promise<unknown>, target?: number) {
  await fn();
  const xs: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    await fn();
    xs.push(performance.now() - t0);
  }
  xs.sort((a, b) => a - b);
  const p50 = xs[Math.floor(xs.length / 2)]!;
  const p95 = xs[Math.min(xs.length - 1, Math.floor(xs.length * 0.95))]!;
  const verdict = target === undefined ? '' : p95 < target ? ' ok' : ` OVER the ${target} ms target`;
  console.log(
    `${label.padEnd(44)} p50 ${p50.toFixed(1).padStart(7)} ms   ` +
      `p95 ${p95.toFixed(1).padStart(7)} ms   (${runs} runs)${verdict}`,
  );
}

/**
 * An agent attempt whose trajectory has STEPS steps and OUTPUT_BYTES of tool output, then the server
 * time of what its page loads (the attempt, the trajectory's heads and jumps, the first page of
 * steps: the same query functions the page calls), of a step range further in, of one output
 * loaded whole, and of a search over every step.
 */
export async function benchTrajectoryPage(db: Db) {
  const campaignId = newId('campaign');
  const targetId = newId('target');
  const snapshotId = newId('fixtureSnapshot');
  const attemptId = newId('attempt');
  await db.campaign.create({
    data: {
      id: campaignId,
      name: 'Bench agent',
      createdBy: 'bench',
      status: 'COMPLETED',
      config: {},
      configHash: 'bench-agent',
      seed: 0,
      suiteVersion: 'bench',
      trials: 1,
    },
  });
  await db.campaignTarget.create({
    data: {
      id: targetId,
      campaignId,
      modelId: 'bench/agent',
      baseModel: 'bench/agent',
      outputMode: 'text',
      profile: 'bench',
    },
  });
  await db.fixtureSnapshot.create({
    data: {
      id: snapshotId,
      campaignId,
      domain: 'merge',
      fixtureId: 'f001',
      difficulty: 'hard',
      tags: [],
      definition: {},
      scoringType: 'state_assertions',
    },
  });
  await db.attempt.create({
    data: {
      id: attemptId,
      campaignId,
      targetId,
      fixtureSnapshotId: snapshotId,
      trial: 1,
      modelId: 'bench/agent',
      outputMode: 'text',
      domain: 'merge',
      fixtureId: 'f001',
      difficulty: 'hard',
      status: 'VALID_FAIL',
      passed: false,
    },
  });
  const t0 = performance.now();
  const { trajectoryId, steps } = await seedTrajectory(db, {
    attemptId,
    steps: STEPS,
    outputBytesPerStep: Math.round(OUTPUT_BYTES / STEPS),
    seed: 9,
  });
  const [size] = await db.$queryRaw<{ output: bigint; stored: bigint; raw: bigint }[]>`
    SELECT sum("outputBytes") AS output, sum(length("body")) AS stored, sum("bodyBytes") AS raw FROM "TrajectoryStep"
      WHERE "trajectoryId" = ${trajectoryId}`;
  console.log(
    `trajectory: ${STEPS} steps, ${(Number(size!.output) / 1e6).toFixed(1)} ` +
      `MB of tool output (${(Number(size!.raw) / 1e6).toFixed(1)} MB of records, ` +
      `${(Number(size!.stored) / 1e6).toFixed(1)} MB gzip-compressed in ` +
      `Postgres), seeded in ${((performance.now() - t0) / 1000).toFixed(1)} s`,
  );

  const openPage = async () => {
    const [found, view] = await Promise.all([getAttemptEvidence(db, attemptId), getTrajectoryView(db, attemptId)]);
    const first = await getStepRange(db, attemptId, { from: 0, to: STEP_PAGE });
    return { found, view, first };
  };
  const opened = await openPage();
  const headsBytes = Buffer.byteLength(JSON.stringify(opened.view!.heads));
  const pageBytes = Buffer.byteLength(JSON.stringify(opened.first));
  console.log(
    `page payload: heads of ${opened.view!.heads.length} steps ${(headsBytes / 1024).toFixed(0)} ` +
      `KB, first ${STEP_PAGE} steps (previews) ${(pageBytes / 1024).toFixed(0)} KB`,
  );
  await sample('attempt page (attempt, heads, first page)', 20, openPage, PAGE_TARGET_MS);
  const mid = Math.floor(STEPS / 2 / STEP_PAGE) * STEP_PAGE;
  await sample(`step range ${mid}..${mid + STEP_PAGE} (previews)`, 20, () =>
    getStepRange(db, attemptId, { from: mid, to: mid + STEP_PAGE }),
  );
  const big = steps[mid]!.results[0]!;
  await sample(`one output whole (${(big.output.length / 1e3).toFixed(0)} KB)`, 20, () =>
    getStepPart(db, attemptId, mid, { kind: 'output', callId: big.callId }),
  );
  // A text no step holds: the search reads and scans every body (the worst case; a common word stops at SEARCH_LIMIT
  // hits).
  await sample(`search over all ${STEPS} steps (no hit: full scan)`, 5, () =>
    searchTrajectory(db, attemptId, 'zz-no-such-text'),
  );
}
