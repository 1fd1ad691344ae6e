import {
  ATTEMPT_EVIDENCE_VERSION,
  exitStatusIsCounted,
  exitStatusIsScored,
  newId,
  type AgentExitStatus,
  type GitbenchEvidence,
} from '../packages/core/src';
import {
  appendTrajectoryStep,
  createDb,
  finishTrajectory,
  insertCampaign,
  refreshCampaignStats,
  startTrajectory,
  storeTrajectory,
  type Db,
} from '../packages/db/src';
import { prng, randomTrajectory } from '../packages/test-support/src';

/**
 * Agent campaigns for the browser tests, written the way the runtime leaves them (a Trajectory per
 * try, steps from the seeded factory), and a live one that grows while a spec watches:
 *   node --import tsx e2e/seed-agent.ts campaign [agent]     -> {"campaignId", "attempts": [...]}
 *     (agent: its targets and attempts in output mode agent, each with a try's evidence as the worker writes it)
 *   node --import tsx e2e/seed-agent.ts live                 -> {"campaignId", "attemptId"}
 *   node --import tsx e2e/seed-agent.ts append <attempt> <n> [finish]
 *   node --import tsx e2e/seed-agent.ts targets              -> {"campaignId"}: agent × model targets
 * Every run of `campaign` and `live` makes a new campaign, so specs never share rows.
 */
const LIVE_STEPS = 40;
const LIVE_SEED = 77;

async function newCampaign(
  db: Db,
  name: string,
  models: string[],
  fixtures: string[],
  trials: number,
  outputMode: 'text' | 'agent' = 'text',
) {
  const campaignId = await insertCampaign(db, {
    name,
    createdBy: 'e2e',
    config: {},
    configHash: `agent-${Date.now()}`,
    seed: 1,
    suiteVersion: 'e2e',
    trials,
    targets: models.map((m) => ({ modelId: m, baseModel: m, reasoningEffort: null, outputMode, profile: 'simulated' })),
    fixtures: fixtures.map((f) => ({
      domain: 'merge',
      fixtureId: f,
      difficulty: 'medium',
      tags: ['agent'],
      scoringType: 'state_assertions',
      definition: { prompt: `Resolve ${f}` },
    })),
  });
  return db.campaign.findUniqueOrThrow({ where: { id: campaignId }, include: { targets: true, fixtures: true } });
}

/**
 * A finished agent try's evidence: scored on the repository, the steps in its trajectory, no transcript and no sandbox
 * of the answer's own.
 */
function agentTryEvidence(exitStatus: AgentExitStatus, steps: number): GitbenchEvidence {
  return {
    version: ATTEMPT_EVIDENCE_VERSION,
    origin: 'gitbench',
    mode: 'agent',
    prompt: 'Resolve the conflict.',
    output: 'Merged both sides.\nKept the new name.',
    expected: null,
    error: null,
    scoring: null,
    sandbox: { kind: 'none', reason: 'sandbox: none (scored on text)' },
    calls: [],
    judge: null,
    agent: {
      exitStatus,
      exitDetail: null,
      protocol: 'native',
      toolSet: 'bash',
      steps,
      toolCalls: steps,
      scoredOn: 'repository',
      submission: 'Merged both sides.\nKept the new name.',
    },
  };
}

async function seedCampaign(db: Db, mode: 'text' | 'agent') {
  const name =
    `Seeded ${mode === 'agent' ? 'agent-mode ' : ''}agent ` + `campaign ${new Date().toISOString().slice(11, 19)}`;
  const c = await newCampaign(
    db,
    name,
    ['simulated-agent/strong', 'simulated-agent/weak'],
    ['f001', 'f002', 'f003'],
    2,
    mode,
  );
  const rand = prng(5);
  const attempts: {
    id: string;
    modelId: string;
    fixtureId: string;
    trial: number;
    passed: boolean;
    exitStatus: AgentExitStatus;
    steps: number;
  }[] = [];
  let seed = 100;
  for (const [ti, target] of c.targets.entries()) {
    for (const f of c.fixtures) {
      for (let trial = 1; trial <= c.trials; trial++) {
        seed++;
        const strong = ti === 0;
        const exitStatus: AgentExitStatus = strong
          ? rand() < 0.85
            ? 'submitted'
            : 'turn_limit'
          : (['submitted', 'turn_limit', 'cost_limit', 'format_errors', 'submitted'] as const)[seed % 5]!;
        const steps =
          exitStatus === 'turn_limit' ? 60 : strong ? 12 + Math.floor(rand() * 20) : 20 + Math.floor(rand() * 40);
        const passed = exitStatus === 'submitted' && (strong || rand() < 0.4);
        const id = `att_e2eagent_${c.id.slice(4)}_${attempts.length}`;
        const { summary, steps: records } = randomTrajectory({
          seed,
          steps,
          exitStatus,
          agent: target.modelId,
          model: target.modelId,
          bigOutputBytes: 200_000,
        });
        const cost = records.reduce((t, s) => t + (s.usage.costUsd ?? 0), 0);
        await db.attempt.create({
          data: {
            id,
            campaignId: c.id,
            targetId: target.id,
            fixtureSnapshotId: f.id,
            trial,
            modelId: target.modelId,
            outputMode: mode,
            domain: f.domain,
            fixtureId: f.fixtureId,
            difficulty: f.difficulty,
            status: exitStatusIsCounted(exitStatus)
              ? passed && exitStatusIsScored(exitStatus)
                ? 'VALID_PASS'
                : 'VALID_FAIL'
              : 'INFRA_FAILURE',
            passed,
            score: passed ? 1 : 0,
            tryCount: 1,
            costUsd: cost,
            inputTokens: summary.totals.inputTokens,
            outputTokens: summary.totals.outputTokens,
            totalTokens: summary.totals.totalTokens,
            queuedAt: new Date(),
            startedAt: new Date(),
            finishedAt: new Date(),
            wallDurationMs: Math.round(summary.totals.wallMs),
            ...(mode === 'agent'
              ? {
                  tries: {
                    create: {
                      id: newId('attemptTry'),
                      tryNumber: 1,
                      workerId: 'e2e',
                      status: passed ? 'VALID_PASS' : 'VALID_FAIL',
                      startedAt: new Date(),
                      finishedAt: new Date(),
                      evidence: agentTryEvidence(exitStatus, steps),
                    },
                  },
                }
              : {}),
          },
        });
        await storeTrajectory(db, id, 1, summary, records);
        attempts.push({ id, modelId: target.modelId, fixtureId: f.fixtureId, trial, passed, exitStatus, steps });
      }
    }
  }
  // Published, as after its safety review, so viewers see its trajectories.
  await db.campaign.update({
    where: { id: c.id },
    data: {
      status: 'COMPLETED',
      startedAt: new Date(),
      finishedAt: new Date(),
      publishedAt: new Date(),
      publishedBy: 'e2e',
    },
  });
  return { campaignId: c.id, attempts };
}

async function seedLive(db: Db) {
  const c = await newCampaign(
    db,
    `Live agent campaign ${new Date().toISOString().slice(11, 19)}`,
    ['simulated-agent/live'],
    ['f001'],
    1,
    'agent',
  );
  const target = c.targets[0]!;
  const f = c.fixtures[0]!;
  const attemptId = `att_e2elive_${c.id.slice(4)}`;
  // Running, as a worker leaves an agent attempt before its first step: no trajectory yet.
  await db.attempt.create({
    data: {
      id: attemptId,
      campaignId: c.id,
      targetId: target.id,
      fixtureSnapshotId: f.id,
      trial: 1,
      modelId: target.modelId,
      outputMode: 'agent',
      domain: f.domain,
      fixtureId: f.fixtureId,
      difficulty: f.difficulty,
      status: 'RUNNING',
      queuedAt: new Date(),
      startedAt: new Date(),
    },
  });
  await db.campaign.update({ where: { id: c.id }, data: { status: 'RUNNING', startedAt: new Date() } });
  return { campaignId: c.id, attemptId };
}

async function append(db: Db, attemptId: string, count: number, finish: boolean) {
  const { summary, steps } = randomTrajectory({
    seed: LIVE_SEED,
    steps: LIVE_STEPS,
    agent: 'simulated-agent/live',
    model: 'simulated-agent/live',
  });
  await startTrajectory(db, {
    attemptId,
    tryNumber: 1,
    agent: summary.agent,
    model: summary.model,
    toolSet: summary.toolSet,
  });
  const t = await db.trajectory.findFirstOrThrow({ where: { attemptId }, orderBy: { tryNumber: 'desc' } });
  const next = steps.slice(t.steps, t.steps + count);
  for (const s of next) await appendTrajectoryStep(db, t.id, s, 'native');
  if (finish) {
    const done = t.steps + next.length;
    await finishTrajectory(db, t.id, { ...summary, exitStatus: 'submitted', exitStep: done - 1, steps: done });
    await db.attempt.update({
      where: { id: attemptId },
      data: { status: 'VALID_PASS', passed: true, score: 1, finishedAt: new Date() },
    });
  }
  return { attemptId, steps: t.steps + next.length };
}

/**
 * A finished campaign whose targets are agents with models: claude-code and codex each drive oracle, and
 * codex drives nop too (one agent with two models, two agents with one model). The oracle passes both
 * fixtures, nop fails them; its stats are refreshed as a worker leaves them.
 */
async function seedTargets(db: Db) {
  const pairs = [
    ['oracle', 'claude-code'],
    ['oracle', 'codex'],
    ['nop', 'codex'],
  ] as const;
  const campaignId = await insertCampaign(db, {
    name: `Agent × model ${new Date().toISOString().slice(11, 19)}`,
    createdBy: 'e2e',
    config: {},
    configHash: `agent-targets-${Date.now()}`,
    seed: 1,
    suiteVersion: 'e2e-agents',
    trials: 1,
    targets: pairs.map(([m, agent]) => ({
      modelId: m,
      baseModel: m,
      reasoningEffort: null,
      outputMode: 'agent' as const,
      agent,
      profile: 'builtin',
    })),
    fixtures: ['f001', 'f002'].map((f) => ({
      domain: 'git_clean',
      fixtureId: f,
      difficulty: 'easy',
      tags: [],
      scoringType: 'state_assertions',
      definition: { prompt: `Clean ${f}` },
    })),
  });
  const c = await db.campaign.findUniqueOrThrow({
    where: { id: campaignId },
    include: { targets: true, fixtures: true },
  });
  for (const target of c.targets) {
    for (const f of c.fixtures) {
      const passed = target.modelId === 'oracle';
      await db.attempt.create({
        data: {
          id: `att_e2etarget_${c.id.slice(4)}_${target.id.slice(-6)}_${f.fixtureId}`,
          campaignId: c.id,
          targetId: target.id,
          fixtureSnapshotId: f.id,
          trial: 1,
          modelId: target.modelId,
          outputMode: 'agent',
          domain: f.domain,
          fixtureId: f.fixtureId,
          difficulty: f.difficulty,
          status: passed ? 'VALID_PASS' : 'VALID_FAIL',
          passed,
          score: passed ? 1 : 0,
          tryCount: 1,
          queuedAt: new Date(),
          startedAt: new Date(),
          finishedAt: new Date(),
        },
      });
    }
  }
  await db.campaign.update({
    where: { id: c.id },
    data: {
      status: 'COMPLETED',
      startedAt: new Date(),
      finishedAt: new Date(),
      publishedAt: new Date(),
      publishedBy: 'e2e',
    },
  });
  await refreshCampaignStats(db, c.id);
  return { campaignId: c.id };
}

const db = createDb({ databaseUrl: process.env.DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/gitbench' });
try {
  const [cmd = 'campaign', ...args] = process.argv.slice(2);
  const out =
    cmd === 'campaign'
      ? await seedCampaign(db, args[0] === 'agent' ? 'agent' : 'text')
      : cmd === 'live'
        ? await seedLive(db)
        : cmd === 'append'
          ? await append(db, args[0]!, Number(args[1] ?? 1), args[2] === 'finish')
          : cmd === 'targets'
            ? await seedTargets(db)
            : null;
  if (!out) throw new Error(`unknown command ${cmd} (campaign, live, append, targets)`);
  console.log(JSON.stringify(out));
} finally {
  await db.$disconnect();
}
