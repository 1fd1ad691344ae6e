import os from 'node:os';
import path from 'node:path';
import { evidenceOfRun, attemptRows, detectProductVersion, runSuite } from '@gitbench/engine';
import { humanModelId, type Fixture } from '@gitbench/core';
import { recordHumanAttempt, refreshCampaignStats, type Prisma } from '@gitbench/db';
import { prepareCampaign } from '@gitbench/use-cases';
import { agentSectionFromFlags } from '../agent-flags';
import { campaignSuite } from '../campaign/campaign-deps';
import { stringFlag, UsageError, type ParsedArgs } from '../args';
import type { CliEnv } from '../env';
import { EXIT } from '../exit';
import { createHumanShell, lineSource } from '../human/human-shell';
import { loadSuite } from '../load-suite';
import { sandboxDriver } from '../sandbox-driver';
import { withServices } from '../services';

const json = (v: unknown) => v as Prisma.InputJsonValue;

/**
 * `gitbench human <suite> --id <domain/id>`: a person works one fixture as an agent would, in its own
 * sandbox, with the agent's tools, limits and scorer (human/human-shell.ts), and the attempt is stored
 * as a finished one-attempt campaign of the target `human:<name>`: its time, every command with its
 * output and exit code as the trajectory, and its score, shown beside the models as a human baseline.
 */
export async function humanCommand(args: ParsedArgs, env: CliEnv): Promise<number> {
  const dir = args.positionals[0]!;
  const wanted = stringFlag(args, 'id');
  if (!wanted) throw new UsageError('--id <domain/id> names the fixture to work');
  const name = stringFlag(args, 'name') ?? process.env.USER ?? os.userInfo().username;
  const modelId = humanModelId(name);
  const suite = await loadSuite(dir);
  const fixture = suite.fixtures.find((f: Fixture) => `${f.domain}/${f.id}` === wanted);
  if (!fixture) {
    const broken = suite.errors.find((e) => e.file.includes(`${wanted}.`));
    throw new UsageError(
      broken
        ? `${wanted} is not a valid fixture: ${broken.file}:${broken.line}: ${broken.message}`
        : `${dir} has no fixture ${wanted}`,
    );
  }
  // The agent's own defaults (the fixture family's tool set, the suite's limits, else the default ones): the same
  // conditions as a model.
  const agent = agentSectionFromFlags(args) ?? {};
  const suiteDir = path.normalize(dir).replace(/\/+$/, '');
  const product = detectProductVersion(process.env, import.meta.dirname);
  // The configuration a campaign of this person on this fixture would have, checked by the same rules.
  const prepared = await prepareCampaign(
    {
      name: `Human baseline: ${name} on ${wanted}`,
      createdBy: modelId,
      models: [modelId],
      outputModes: ['agent'],
      agent,
      trials: 1,
      fixtures: { suiteDir, ids: [wanted] },
    },
    {
      loadSuite: () => Promise.resolve(campaignSuite(suite)),
      profileFor: () => ({ profile: 'human' }),
    },
  );
  if (!prepared.ok)
    throw new UsageError(
      Object.entries(prepared.errors.fieldErrors)
        .map(([f, m]) => `${f}: ${(m ?? []).join('; ')}`)
        .concat(prepared.errors.formErrors)
        .join('\n'),
    );

  const out = process.stdout;
  const lines = lineSource(process.stdin, out);
  const person = createHumanShell({ name, lines, output: out });
  const driver = await sandboxDriver(stringFlag(args, 'sandbox'), 1);
  out.write(`Building ${wanted} in a sandbox for ${modelId}…\n`);
  const startedAt = new Date();
  let entry;
  try {
    [entry] = await runSuite([fixture], driver, {
      model: person,
      modelName: modelId,
      outputModes: ['text'],
      trials: 1,
      workers: 1,
      agent: prepared.config.agent,
    });
  } finally {
    lines.close();
    await driver.close();
  }
  const finishedAt = new Date();
  const run = entry!.run;
  if (!run) {
    process.stderr.write(`gitbench human: the attempt could not run: ${entry!.error ?? 'unknown error'}\n`);
    return EXIT.infrastructure;
  }
  const wallMs = finishedAt.getTime() - startedAt.getTime();
  const rows = attemptRows(
    run,
    run.agent?.summary.totals.wallMs ?? wallMs,
    evidenceOfRun(run, { mode: 'agent', expected: fixture.expected }),
  );
  const outcome = {
    ...rows,
    record: rows.record.evidence
      ? { ...rows.record, evidence: json(rows.record.evidence) }
      : { errorClass: rows.record.errorClass, errorMessage: rows.record.errorMessage },
  };
  const steps = run.agent?.steps ?? [];
  const stored = await withServices(env, { queue: false }, async ({ db }) => {
    const written = await recordHumanAttempt(db, {
      campaign: {
        name: prepared.config.name,
        createdBy: modelId,
        config: json(prepared.config),
        configHash: prepared.hash,
        seed: prepared.config.seed,
        suiteVersion: prepared.config.fixtures.suiteVersion ?? suite.version,
        trials: 1,
        product,
      },
      target: { modelId, baseModel: modelId, reasoningEffort: null, outputMode: 'agent', profile: 'human' },
      fixture: {
        domain: fixture.domain,
        fixtureId: fixture.id,
        difficulty: fixture.difficulty,
        tags: fixture.tags,
        scoringType: fixture.scoring.type,
        definition: json(fixture),
      },
      startedAt,
      finishedAt,
      outcome,
      trajectory: run.agent
        ? {
            agent: person.name,
            model: modelId,
            toolSet: run.agent.summary.toolSet,
            protocol: run.agent.summary.protocol === 'text' ? 'text' : 'native',
            steps,
            summary: run.agent.summary,
          }
        : null,
    });
    await refreshCampaignStats(db, written.campaignId);
    return written;
  });
  const verdict = run.passed === true ? 'PASS' : run.passed === false ? 'FAIL' : run.status;
  const report = {
    target: modelId,
    fixture: wanted,
    status: run.status,
    passed: run.passed,
    commands: steps.length,
    exitStatus: run.agent?.summary.exitStatus ?? null,
    wallMs: run.agent?.summary.totals.wallMs ?? wallMs,
    ...stored,
  };
  if (args.flags.has('json')) out.write(`${JSON.stringify(report, null, 2)}\n`);
  else {
    out.write(
      `\n${verdict}: ${wanted} by ${modelId} in ${(report.wallMs / 1000).toFixed(1)} ` +
        `s, ${report.commands} step(s), ` +
        `ended ${report.exitStatus ?? 'without a loop'}${run.errorMessage ? ` (${run.errorMessage})` : ''}\n` +
        `stored as campaign ${stored.campaignId}, attempt ${stored.attemptId} (/attempts/${stored.attemptId})\n`,
    );
  }
  return EXIT.ok;
}
