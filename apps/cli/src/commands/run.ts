import { writeFile } from 'node:fs/promises';
import { awaitsJudge, isInfrastructureOutcome, suiteModeRefusal, withSuiteAgentLimits } from '@gitbench/core';
import {
  detectProductVersion,
  openAgentTarget,
  replayAgreement,
  runSuite,
  toUpstreamEnvelope,
  type ThirdPartyAgentTarget,
} from '@gitbench/engine';
import { agentSectionFromFlags } from '../agent-flags';
import { formatFixtureError, loadSuite } from '../load-suite';
import { selectOrRefuse } from '../fixture-selection';
import { createProgress } from '../progress';
import { loadRegistry } from '../registry';
import { modeFlag, outputPath, parseRunArgs, runModes } from '../run-options';
import {
  agentFigures,
  attemptLine,
  attemptResult,
  formatRunReport,
  outcomeCounts,
  type RunReport,
  type RunSummary,
} from '../run-report';
import { EXIT, InfrastructureError } from '../exit';
import { cliSandboxLabels, sandboxDriver } from '../sandbox-driver';
import { UsageError, type ParsedArgs } from '../args';

/**
 * `gitbench run <dir> --model <id> ...`: the embedded mode, no services. The model comes from the
 * provider registry (built-in, replay, or a profile's), every attempt runs in a sandbox and is scored
 * by the fixture's scorer; llm_judge fixtures are judged only with --judge-profile.
 */
export async function runCommand(args: ParsedArgs): Promise<number> {
  const opts = parseRunArgs(args);
  const suite = await loadSuite(opts.dir);
  for (const e of suite.errors) process.stderr.write(`invalid (skipped): ${formatFixtureError(e)}\n`);
  const fixtures = selectOrRefuse(opts.selection, suite);
  // The run is held to the modes the suite's tasks are built for (suite.yaml), and an agent run to its limits where no
  // flag sets one. A suite.yaml that does not load cannot say either.
  const manifestError = suite.errors.find((e) => e.file === 'suite.yaml');
  if (manifestError)
    throw new UsageError(
      `${modeFlag(args)}: ${suite.dir}/${formatFixtureError(manifestError)} ` +
        `(its modes${opts.agent ? ' and agent limits' : ''} cannot be read)`,
    );
  const refused = runModes(opts)
    .map((mode) => suiteModeRefusal(suite.modes, mode))
    .find((why) => why !== null);
  if (refused) throw new UsageError(`${modeFlag(args)}: ${refused}`);
  const agent = opts.agent && withSuiteAgentLimits(opts.agent, agentSectionFromFlags(args), suite.agentLimits);
  // Resolved before any sandbox starts: an unknown model, profile or missing key fails in a second.
  const registry = await loadRegistry();
  const target = await registry.resolve(opts.target);
  const judge = opts.judgeProfile ? registry.judgePanel(opts.judgeProfile) : undefined;
  const driver = await sandboxDriver(opts.sandbox, opts.workers);
  let thirdParty: (ThirdPartyAgentTarget & { image: string }) | undefined;
  if (opts.thirdPartyAgent) {
    const sandbox = driver.describe();
    if (sandbox.driver !== 'docker') {
      await driver.close();
      throw new InfrastructureError(
        `--agent ${opts.thirdPartyAgent} needs the Docker sandbox ` +
          `(its model gateway's socket is mounted into the container)`,
      );
    }
    // Built on demand, once per content: the first run of an agent installs it from npm (a minute or two).
    thirdParty = await openAgentTarget(opts.thirdPartyAgent, {
      sandboxImage: sandbox.image,
      stateDir: process.env.GITBENCH_STATE_DIR ?? '.gitbench',
      labels: cliSandboxLabels(),
    }).catch(async (err: unknown) => {
      await driver.close();
      throw new InfrastructureError(
        `the agent ${opts.thirdPartyAgent} could not be prepared: ${(err as Error).message}`,
      );
    });
  }
  const progress = createProgress(`run ${thirdParty ? `${thirdParty.adapter.name} × ` : ''}${target.model}`);
  const started = new Date();
  try {
    const entries = await runSuite(fixtures, driver, {
      model: target.provider,
      modelName: target.model,
      outputModes: opts.outputModes,
      trials: opts.trials,
      workers: opts.workers,
      ...(agent ? { agent } : {}),
      ...(thirdParty ? { thirdParty } : {}),
      ...(judge ? { judge } : {}),
      onProgress: (d, t, entry) => {
        progress.log(attemptLine(d, t, entry));
        progress.update(d, t);
      },
    });
    progress.done();
    // The checkout this CLI is (or GITBENCH_VERSION when a build baked one in), as upstream records its commit.
    const product = detectProductVersion(process.env, import.meta.dirname);
    const runs: RunSummary[] = [];
    for (const mode of opts.agent ? (['text'] as const) : opts.outputModes) {
      for (let trial = 1; trial <= opts.trials; trial++) {
        const mine = entries.filter((e) => e.outputMode === mode && e.trial === trial);
        const envelope = toUpstreamEnvelope(
          {
            model: target.model,
            outputMode: mode,
            timestamp: started.toISOString(),
            suiteVersion: suite.version,
            product,
            profile: target.profile,
            reasoningLevel: target.modelId.effort ?? null,
          },
          mine,
        );
        const ours = envelope.gitbench as {
          excluded: RunSummary['excluded'];
          usage: RunSummary['usage'];
          judge_usage: RunSummary['judgeUsage'];
        };
        const run: RunSummary = {
          outputMode: mode,
          trial,
          attempts: mine.length,
          outcomes: outcomeCounts(mine),
          summary: envelope.summary as RunSummary['summary'],
          excluded: ours.excluded,
          usage: ours.usage,
          judgeUsage: ours.judge_usage,
          ...(opts.agent ? { agent: agentFigures(mine) } : {}),
          results: mine.map(attemptResult),
        };
        if (opts.jsonOutput) {
          run.file = outputPath(opts.jsonOutput, mode, trial, opts.outputModes.length, opts.trials);
          await writeFile(run.file, `${JSON.stringify(envelope, null, 2)}\n`);
        }
        runs.push(run);
      }
    }
    const replayed = target.provider.kind === 'replay';
    const unjudged = entries.some((e) => e.attempt && awaitsJudge(e.attempt.outcome));
    const notes: string[] = [];
    if (unjudged && !judge) {
      notes.push(
        `llm_judge fixtures are left unscored without ` +
          `--judge-profile${registry.judgeProfile ? ` (the profile file names '${registry.judgeProfile}')` : ''}.`,
      );
    }
    const report: RunReport = {
      model: target.model,
      provider: target.provider.name,
      profile: target.profile,
      simulated: target.simulated,
      suite: {
        dir: suite.dir,
        version: suite.version,
        fixtures: suite.fixtures.length,
        selected: fixtures.length,
        invalidFiles: new Set(suite.errors.map((e) => e.file)).size,
      },
      runs,
      ...(replayed ? { agreement: replayAgreement(entries) } : {}),
      ...(thirdParty
        ? {
            thirdPartyAgent: {
              name: thirdParty.adapter.name,
              version: thirdParty.adapter.version,
              protocol: thirdParty.adapter.protocol,
              image: thirdParty.image,
            },
          }
        : {}),
      notes,
    };
    process.stdout.write(opts.json ? `${JSON.stringify(report, null, 2)}\n` : formatRunReport(report));
    const infra = entries.some((e) => e.attempt === null || isInfrastructureOutcome(e.attempt.outcome));
    if (infra) return EXIT.infrastructure;
    return report.agreement && report.agreement.disagreed > 0 ? EXIT.failed : EXIT.ok;
  } finally {
    progress.done();
    await thirdParty?.driver.close();
    await driver.close();
  }
}
