import {
  callsToTrajectory,
  sumStepUsage,
  TRAJECTORY_VERSION,
  type GatewayCallRecord,
  type RepoStepState,
  type TrajectorySummary,
} from '../packages/core/src';
import { claimAttempt, createDb, finishAttempt, insertCampaign, storeTrajectory, type Db } from '../packages/db/src';

/**
 * A campaign with one third-party agent attempt (Claude Code driven by the oracle through the model
 * gateway), written the way the worker leaves one: the try and its gateway calls by finishAttempt,
 * the trajectory rebuilt from those calls (core's callsToTrajectory) with the repository states read
 * before each call. The agent merges a branch that conflicts, resolves it and commits:
 *   node --import tsx e2e/seed-third-party.ts   -> {"campaignId", "attemptId"}
 */
const AGENT = 'claude-code@2.1.332';
const TASK = 'Merge the feature branch into main and resolve the conflict in a.txt.';
const t0 = Date.parse('2026-11-27T12:00:00.000Z');

function state(head: string, over: Partial<RepoStepState> = {}): RepoStepState {
  return {
    head,
    branch: 'main',
    staged: 0,
    unstaged: 0,
    untracked: 0,
    conflicted: 0,
    operations: [],
    refsChanged: [],
    diff: '',
    diffBytes: 0,
    diffTruncatedBytes: 0,
    ...over,
  };
}

const BEFORE = '1111111111111111111111111111111111111111';
const AFTER = '2222222222222222222222222222222222222222';
const CONFLICT_DIFF =
  'diff --cc a.txt\n--- a/a.txt\n+++ b/a.txt\n@@@ -1,1 -1,1 +1,5 ' +
  '@@@\n++<<<<<<< HEAD\n +main\n++=======\n+ feature\n++>>>>>>> feature\n';
const RESOLVED_DIFF = 'diff --git a/a.txt b/a.txt\n--- a/a.txt\n+++ b/a.txt\n@@ -1 +1,2 @@\n main\n+feature\n';

/** Bash tool_use blocks, as the oracle answers Claude Code through its own shell tool. */
function call(seq: number, over: Partial<GatewayCallRecord>): GatewayCallRecord {
  const startedAt = new Date(t0 + seq * 4000).toISOString();
  return {
    seq,
    protocol: 'messages',
    requestedModel: 'claude-sonnet-4-5',
    model: 'oracle',
    request: { model: 'claude-sonnet-4-5', stream: true, messages: [{ role: 'user', content: TASK }] },
    response: null,
    status: 200,
    error: null,
    errorKind: null,
    tools: ['Bash', 'Read', 'Edit'],
    toolResults: [],
    answer: null,
    inputTokens: null,
    outputTokens: null,
    reasoningTokens: null,
    costUsd: null,
    costEstimated: false,
    gatewayMs: 0.4,
    providerMs: 1.2,
    hookMs: 180,
    retries: 0,
    streamed: true,
    startedAt,
    endedAt: new Date(t0 + seq * 4000 + 200).toISOString(),
    ...over,
  };
}

const bash = (id: string, command: string) => ({ id, name: 'Bash', arguments: JSON.stringify({ command }) });

const CALLS: GatewayCallRecord[] = [
  // Claude Code's side question (a title for the session): no tools offered, not a step.
  call(1, { tools: [], answer: { content: 'Done.', reasoning: null, toolCalls: [], finishReason: 'stop' } }),
  call(2, {
    answer: {
      content: null,
      reasoning: null,
      toolCalls: [bash('call_gboracle_1_a', 'git merge feature')],
      finishReason: 'tool_calls',
    },
  }),
  call(3, {
    toolResults: [
      {
        callId: 'call_gboracle_1_a',
        name: 'Bash',
        content:
          'Auto-merging a.txt\nCONFLICT (content): Merge conflict in a.txt\nAutomatic ' +
          'merge failed; fix conflicts and then commit the result.\nExit code 1',
        isError: true,
      },
    ],
    answer: {
      content: null,
      reasoning: null,
      toolCalls: [
        bash('call_gboracle_2_b', "printf 'main\\nfeature\\n' > a.txt && git add a.txt && git commit --no-edit"),
      ],
      finishReason: 'tool_calls',
    },
  }),
  call(4, {
    toolResults: [
      { callId: 'call_gboracle_2_b', name: 'Bash', content: "[main 2222222] Merge branch 'feature'", isError: false },
    ],
    answer: { content: 'Done.', reasoning: null, toolCalls: [], finishReason: 'stop' },
  }),
];

/** What GitBench read before each call, beside the running agent. */
const REPO_BEFORE = new Map<number, RepoStepState>([
  [1, state(BEFORE)],
  [2, state(BEFORE)],
  [3, state(BEFORE, { conflicted: 1, operations: ['merge'], diff: CONFLICT_DIFF, diffBytes: CONFLICT_DIFF.length })],
  [
    4,
    state(AFTER, {
      refsChanged: [{ ref: 'refs/heads/main', before: BEFORE, after: AFTER }],
      diff: RESOLVED_DIFF,
      diffBytes: RESOLVED_DIFF.length,
    }),
  ],
]);

async function seed(db: Db) {
  const campaignId = await insertCampaign(db, {
    name: `Third-party agent campaign ${new Date().toISOString().slice(11, 19)}`,
    createdBy: 'e2e',
    config: {},
    configHash: `third-party-${Date.now()}`,
    seed: 1,
    suiteVersion: 'e2e',
    trials: 1,
    targets: [
      { modelId: 'oracle', baseModel: 'oracle', reasoningEffort: null, outputMode: 'agent', profile: 'builtin' },
    ],
    fixtures: [
      {
        domain: 'merge_conflicts',
        fixtureId: 'f002',
        difficulty: 'easy',
        tags: ['agent'],
        scoringType: 'state_assertions',
        definition: { prompt: TASK },
      },
    ],
  });
  const c = await db.campaign.findUniqueOrThrow({
    where: { id: campaignId },
    include: { targets: true, fixtures: true },
  });
  const attemptId = `att_e2etp_${campaignId.slice(4)}`;
  const f = c.fixtures[0]!;
  await db.attempt.create({
    data: {
      id: attemptId,
      campaignId,
      targetId: c.targets[0]!.id,
      fixtureSnapshotId: f.id,
      trial: 1,
      modelId: 'oracle',
      outputMode: 'agent',
      domain: f.domain,
      fixtureId: f.fixtureId,
      difficulty: f.difficulty,
      status: 'QUEUED',
      queuedAt: new Date(),
    },
  });
  await db.campaign.update({ where: { id: campaignId }, data: { status: 'RUNNING', startedAt: new Date() } });
  const claim = (await claimAttempt(db, attemptId, 'e2e-worker'))!;
  const steps = callsToTrajectory(CALLS, { repoBeforeCall: REPO_BEFORE, repoAtEnd: REPO_BEFORE.get(4)! });
  const summary: TrajectorySummary = {
    version: TRAJECTORY_VERSION,
    agent: AGENT,
    model: 'oracle',
    toolSet: 'claude-code',
    protocol: 'native',
    exitStatus: 'model_stopped',
    exitDetail: null,
    exitStep: steps.length - 1,
    submission: 'Done.',
    steps: steps.length,
    totals: {
      ...sumStepUsage(steps),
      modelMs: 5,
      toolMs: steps.reduce((t, s) => t + s.toolMs, 0),
      wallMs: 16_000,
      toolCalls: 2,
    },
    systemPrompt: "(Claude Code 2.1.332's own system prompt: see the first call's request)",
    taskPrompt: TASK,
  };
  await storeTrajectory(db, attemptId, claim.tryNumber, summary, steps);
  await finishAttempt(db, claim, 'e2e-worker', {
    status: 'VALID_PASS',
    passed: true,
    score: 1,
    summary: { wallDurationMs: 16_000 },
    record: { gatewayCalls: CALLS },
  });
  await db.campaign.update({
    where: { id: campaignId },
    data: { status: 'COMPLETED', finishedAt: new Date(), publishedAt: new Date(), publishedBy: 'e2e' },
  });
  return { campaignId, attemptId };
}

const db = createDb({ databaseUrl: process.env.DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/gitbench' });
try {
  console.log(JSON.stringify(await seed(db)));
} finally {
  await db.$disconnect();
}
