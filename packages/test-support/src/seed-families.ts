import { ATTEMPT_EVIDENCE_VERSION, newId, type GitbenchEvidence } from '@gitbench/core';
import { insertCampaign, refreshCampaignStats, type Db, type Prisma } from '@gitbench/db';
import { exec, seedAttempts, type SeedAttempt } from './seed-family-attempts';

/**
 * A finished campaign over the task families whose attempts carry evidence records shaped as the
 * worker writes them: the sandbox's probe records (the grader's verdict line, the outputs listing,
 * the gist evaluator's JSON) and the score core computes from them. For browser tests and demos of
 * the family pages and the attempt page's evidence views, without Docker or a model.
 */

function evidenceOf(s: SeedAttempt): GitbenchEvidence {
  const hashes = {
    input: 'sha256:seed',
    expectedInput: 'sha256:seed',
    definition: 'sha256:def',
    prompt: 'sha256:prompt',
    expected: 'sha256:exp',
    scorerConfig: 'sha256:cfg',
  };
  return {
    version: ATTEMPT_EVIDENCE_VERSION,
    origin: 'gitbench',
    mode: 'text',
    prompt: `Seeded ${s.scoringType} task ${s.domain}/${s.fixtureId}.`,
    output: s.output,
    expected: '',
    error: null,
    scoring: {
      scoringType: s.scoringType,
      outcome: s.score.passed ? 'PASS' : 'FAIL',
      passed: s.score.passed,
      score: s.score.score,
      checks: s.score.checks,
      scoredText: s.output,
      structuredError: null,
      hashes,
      timings: { totalMs: 2400, sandboxMs: 2100, scoreMs: 300 },
      family: s.score.family ?? null,
    },
    sandbox: {
      kind: 'docker',
      image: 'gitbench-sandbox:seed',
      imageId: 'sha256:seed',
      isolated: true,
      evidence: { answer: [exec(s.output || 'true', '')], probes: s.probes },
      durationMs: 2100,
    },
    calls: [],
    judge: null,
  };
}

/**
 * Seeds one completed campaign of the families with one attempt per label; returns its id and the attempts by label.
 */
export async function seedFamilyCampaign(
  db: Db,
  name = 'Task families (seeded)',
): Promise<{ campaignId: string; attempts: Record<string, string> }> {
  const seeds = seedAttempts();
  const campaignId = await insertCampaign(db, {
    name,
    createdBy: 'seed',
    config: { seeded: true },
    configHash: `seed-${name}`,
    seed: 1,
    suiteVersion: 'families-seed',
    trials: 1,
    targets: [
      {
        modelId: 'scripted-agent',
        baseModel: 'scripted-agent',
        reasoningEffort: null,
        outputMode: 'text',
        profile: 'scripted',
      },
    ],
    fixtures: seeds.map((s) => ({
      domain: s.domain,
      fixtureId: s.fixtureId,
      difficulty: s.difficulty,
      tags: [],
      scoringType: s.scoringType,
      definition: { id: s.fixtureId, prompt: `Seeded ${s.scoringType} task.` },
    })),
  });
  const c = await db.campaign.findUniqueOrThrow({
    where: { id: campaignId },
    include: { targets: true, fixtures: true },
  });
  const target = c.targets[0]!;
  const now = new Date();
  const attempts: Record<string, string> = {};
  for (const s of seeds) {
    const snapshot = c.fixtures.find((f) => f.domain === s.domain && f.fixtureId === s.fixtureId)!;
    const id = newId('attempt');
    attempts[s.label] = id;
    await db.attempt.create({
      data: {
        id,
        campaignId,
        targetId: target.id,
        fixtureSnapshotId: snapshot.id,
        trial: 1,
        modelId: target.modelId,
        outputMode: target.outputMode,
        domain: s.domain,
        fixtureId: s.fixtureId,
        difficulty: s.difficulty,
        status: s.score.passed ? 'VALID_PASS' : 'VALID_FAIL',
        passed: s.score.passed,
        score: s.score.score,
        tryCount: 1,
        startedAt: now,
        finishedAt: now,
        costUsd: s.costUsd,
        tries: {
          create: {
            id: newId('attemptTry'),
            tryNumber: 1,
            workerId: 'seed',
            status: s.score.passed ? 'VALID_PASS' : 'VALID_FAIL',
            startedAt: now,
            finishedAt: now,
            evidence: evidenceOf(s) as unknown as Prisma.InputJsonValue,
          },
        },
      },
    });
  }
  await db.campaign.update({
    where: { id: campaignId },
    data: { status: 'COMPLETED', startedAt: now, finishedAt: now },
  });
  await refreshCampaignStats(db, campaignId);
  return { campaignId, attempts };
}
