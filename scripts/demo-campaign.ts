/**
 * Part of `npm run demo`, run once the worker and the web app are up: imports the upstream results as legacy campaigns
 * (when they are next to this repository) and launches the demo campaigns through the HTTP API, exactly as the form
 * does: single answers, agents working in their sandboxes (the agent campaign), the built-in agents over the hard tier
 * (when fixtures/hard exists), and third-party coding agents (Claude Code, Codex CLI) driven by the built-in models,
 * whose images are built here first, while the dashboard is already up (minutes on first run). Idempotent: a demo
 * campaign with the same configuration hash that is finished or still on its way is reused, so running the demo twice
 * does not pile up campaigns.
 *
 * With the upstream sample data present, the demo campaign runs upstream's fixtures and replays its
 * result files as targets of their own (real answers of a real model with the tokens, cost and
 * latency recorded then, labelled replay wherever shown), beside the built-in models, so that every
 * chart, cost included, has points on first run. Replay reads only from configured directories:
 * demo.sh sets GITBENCH_REPLAY_DIRS to the state directory's `replays`, and each recorded model's
 * files are placed there in a folder named after the model, which is the replay target's name.
 *   node --import tsx scripts/demo-campaign.ts http://127.0.0.1:3000
 */
import { copyFileSync, existsSync, linkSync, mkdirSync, readFileSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { createApiToken, revokeApiToken } from '@gitbench/auth';
import { parseSuite, type Fixture } from '@gitbench/core';
import { createDb } from '@gitbench/db';
import { buildAgentImage, findAgent } from '@gitbench/agents';
import { loadSuiteDir } from '@gitbench/engine';
import { defaultLegacyResultsDir, importLegacyResults } from './lib/legacy-results';

const root = path.resolve(import.meta.dirname, '..');
const baseUrl = process.argv[2] ?? `http://127.0.0.1:${process.env.PORT ?? 3000}`;
const SUITE_DIR = 'fixtures';
// A seeded coin per (fixture, trial): with three trials some fixtures pass every time, some never and
// some sometimes, so flaky classifications and pass_any_at_n have something to show.
const SIMULATED = 'simulated:7';
// Per domain, the first fixture of each of these difficulties: every domain, a spread of difficulty,
// and small enough (576 attempts in both output modes) to finish in a few minutes on two cores.
const DIFFICULTIES = ['easy', 'hard'];
// Seeded simulated agents: each looks around for its own number of steps, sometimes errs, and is right
// as often as the fixture's difficulty allows, so the agent campaign shows a spread of outcomes.
const SIMULATED_AGENTS = ['simulated:1', 'simulated:2', 'simulated:3'];
const AGENT_DIFFICULTIES = ['medium'];
// LLM-judged fixtures need a judge profile with a hosted model; the demo needs no key.
const NO_KEY_SCORERS = (f: Fixture) => f.scoring.type !== 'llm_judge';

const say = (message: string) => console.log(`[gitbench] ${message}`);

/** Every fixture of a suite directory in upstream's layout or ours (benchmark folders of YAML files). */
function suiteFixtures(dir: string): Fixture[] {
  const files = readdirSync(dir, { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .flatMap((d) =>
      readdirSync(path.join(dir, d.name))
        .filter((f) => f.endsWith('.yaml'))
        .sort()
        .map((f) => ({ path: `${d.name}/${f}`, text: readFileSync(path.join(dir, d.name, f), 'utf8') })),
    );
  return parseSuite(files).fixtures;
}

/**
 * Per domain, the first fixture of each difficulty asked for (any difficulty: the first `perDomain`), judged without a
 * key.
 */
function pickFixtureIds(fixtures: Fixture[], difficulties: string[] | null, perDomain = 1): string[] {
  const ids: string[] = [];
  for (const domain of [...new Set(fixtures.map((f) => f.domain))].sort()) {
    const usable = fixtures
      .filter((f) => f.domain === domain && NO_KEY_SCORERS(f))
      .sort((a, b) => a.id.localeCompare(b.id));
    const picked = difficulties
      ? difficulties.flatMap((d) => usable.filter((f) => f.difficulty === d).slice(0, 1))
      : usable.slice(0, perDomain);
    ids.push(...picked.map((f) => `${domain}/${f.id}`));
  }
  return ids;
}

// The API wants a signed-in caller: a token of the first admin's, made for this run and revoked after it.
let token = '';
async function api<T>(route: string, init?: RequestInit): Promise<{ status: number; body: T }> {
  const res = await fetch(new URL(route, baseUrl), {
    ...init,
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}`, ...init?.headers },
  });
  return { status: res.status, body: (await res.json()) as T };
}

async function waitForWebApp(timeoutMs = 90_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    try {
      const res = await fetch(new URL('/api/health', baseUrl));
      if (res.status === 200 || res.status === 503) return;
    } catch {
      // not listening yet
    }
    if (Date.now() > until) throw new Error(`the web app did not answer at ${baseUrl} within ${timeoutMs / 1000} s`);
    await new Promise((r) => setTimeout(r, 1000));
  }
}

/**
 * The recorded models of the upstream result files, each as a replay target (`replay:<model>`): the
 * files are linked (or copied) into `<replay dir>/<model>/`, the directory demo.sh configures.
 */
function prepareReplays(resultsDir: string): string[] {
  const replayDir = process.env.GITBENCH_REPLAY_DIRS?.split(path.delimiter)[0];
  if (!replayDir || !existsSync(resultsDir)) return [];
  const models = new Set<string>();
  for (const file of readdirSync(resultsDir)
    .filter((f) => f.endsWith('.json'))
    .sort()) {
    const source = path.join(resultsDir, file);
    const { model } = JSON.parse(readFileSync(source, 'utf8')) as { model?: unknown };
    if (typeof model !== 'string' || !model) continue;
    const name = model.replace(/[^A-Za-z0-9._-]+/g, '-');
    const target = path.join(replayDir, name, file);
    mkdirSync(path.dirname(target), { recursive: true });
    if (!existsSync(target) || statSync(target).size !== statSync(source).size) {
      try {
        linkSync(source, target);
      } catch {
        copyFileSync(source, target);
      }
    }
    models.add(`replay:${name}`);
  }
  return [...models];
}

function demoConfig() {
  const base = { createdBy: 'npm run demo', outputModes: ['text', 'json_schema'], trials: 3, seed: 7 };
  const upstream = process.env.GITBENCH_UPSTREAM_DIR;
  const replays = upstream ? prepareReplays(path.join(upstream, 'results')) : [];
  if (upstream && replays.length > 0) {
    const suiteDir = path.join(upstream, 'fixtures');
    return {
      ...base,
      name: 'Demo: replayed real model, oracle, mock and simulated',
      models: [...replays, 'oracle', 'mock', SIMULATED],
      fixtures: { suiteDir, ids: pickFixtureIds(suiteFixtures(suiteDir), null, 2) },
    };
  }
  return {
    ...base,
    name: 'Demo: oracle, mock and simulated',
    models: ['oracle', 'mock', SIMULATED],
    fixtures: { suiteDir: SUITE_DIR, ids: pickFixtureIds(suiteFixtures(path.join(root, SUITE_DIR)), DIFFICULTIES) },
  };
}

/**
 * Launches a campaign through the HTTP API as the form does, or names the one already launched with the same
 * configuration.
 */
async function launchCampaign(what: string, config: Record<string, unknown>): Promise<void> {
  const estimate = await api<{
    configHash?: string;
    attempts?: number;
    costEstimateUsd?: number | null;
    costNote?: string;
    formErrors?: string[];
    fieldErrors?: Record<string, string[]>;
  }>('/api/campaigns/estimate', { method: 'POST', body: JSON.stringify(config) });
  if (estimate.status !== 200 || !estimate.body.configHash) {
    throw new Error(`the ${what} configuration was refused: ${JSON.stringify(estimate.body)}`);
  }
  const { body } = await api<{ campaigns: { id: string; status: string; configHash: string }[] }>(
    '/api/campaigns?limit=200',
  );
  const reusable = body.campaigns.find(
    (c) => c.configHash === estimate.body.configHash && !['CANCELLED', 'FAILED'].includes(c.status),
  );
  if (reusable) {
    say(`${what} already ${reusable.status.toLowerCase()}: ${baseUrl}/campaigns/${reusable.id}`);
    return;
  }
  const created = await api<{ campaignId?: string; queued?: boolean; queueError?: string }>('/api/campaigns', {
    method: 'POST',
    body: JSON.stringify(config),
  });
  if (created.status !== 201 || !created.body.campaignId)
    throw new Error(`launching the ${what} failed: ${JSON.stringify(created.body)}`);
  say(
    `${what} launched (${estimate.body.attempts} attempts, a few ` +
      `minutes): ${baseUrl}/campaigns/${created.body.campaignId}`,
  );
  const usd = estimate.body.costEstimateUsd;
  say(
    `its cost estimated before launch: ${usd === null || usd === undefined ? 'unknown' : `$${usd.toFixed(4)}`} ` +
      `(${estimate.body.costNote ?? ''})`,
  );
  if (!created.body.queued)
    say(`the queue did not take the plan yet (${created.body.queueError}); the worker will pick it up`);
}

/**
 * Agents at work: the oracle and nop agents and seeded simulated agents, each in the attempt's own
 * sandbox for many turns with every step recorded, so that a new user can open a trajectory, search
 * it, follow the repository's changes step by step and compare two side by side (two trials, so a
 * passing and a failing run of one fixture). One middling fixture per domain of our suite keeps it
 * to a couple of minutes beside the other demo campaign.
 */
function agentConfig() {
  return {
    name: 'Demo: agents (oracle, nop, simulated)',
    createdBy: 'npm run demo',
    models: ['oracle', 'nop', ...SIMULATED_AGENTS],
    outputModes: ['agent'],
    agent: { toolSet: 'default', limits: { maxTurns: 20, commandTimeoutMs: 20_000 } },
    fixtures: {
      suiteDir: SUITE_DIR,
      ids: pickFixtureIds(suiteFixtures(path.join(root, SUITE_DIR)), AGENT_DIFFICULTIES),
    },
    trials: 2,
    seed: 7,
  };
}

/**
 * The hard tier (fixtures/hard: real history, multi-step work checked by the projects' own tests),
 * worked by the built-in agents: the oracle must pass every task and nop none, and the seeded
 * simulated agents land in between, so the suite's item-analysis page (/suites/fixtures/hard) has
 * pass rates, discrimination and flags to show from the first run. The built-in agents are the
 * item analysis's controls, so the page is opened with them counted (?controls=1) and says so. Runs
 * over whatever the directory holds; without one (an older checkout) it is skipped, saying why.
 */
const HARD_SUITE_DIR = 'fixtures/hard';
async function hardConfig(): Promise<{ config: Record<string, unknown>; fixtures: number } | { skipped: string }> {
  const dir = path.join(root, HARD_SUITE_DIR);
  if (!existsSync(path.join(dir, 'suite.yaml')))
    return { skipped: `${HARD_SUITE_DIR} does not exist in this checkout` };
  // The engine's loader: the tier's fixtures carry assets (bundles of real history, pinned tests).
  const suite = await loadSuiteDir(dir);
  for (const e of suite.errors)
    say(`${HARD_SUITE_DIR}: left out, invalid: ${e.file}:${e.line}: ${e.field}: ${e.message}`);
  const ids = suite.fixtures
    .filter(NO_KEY_SCORERS)
    .map((f) => `${f.domain}/${f.id}`)
    .sort();
  if (ids.length === 0) return { skipped: `${HARD_SUITE_DIR} holds no fixture yet` };
  return {
    fixtures: ids.length,
    config: {
      name: 'Demo: hard tier (oracle, nop, simulated agents)',
      createdBy: 'npm run demo',
      models: ['oracle', 'nop', 'simulated:1', 'simulated:2'],
      outputModes: ['agent'],
      // The projects' tests take seconds per run where a git command takes milliseconds.
      agent: { toolSet: 'default', limits: { maxTurns: 30, commandTimeoutMs: 120_000 } },
      fixtures: { suiteDir: HARD_SUITE_DIR, ids },
      trials: 1,
      seed: 7,
    },
  };
}

/**
 * Agent × model targets: Claude Code and Codex CLI, each driven by the oracle (which plays the reference
 * solution through the agent's own shell tool) and by nop (which ends at once), over one fixture of a
 * few domains: a repository change, a conflict resolution, an answer. Four targets, two agents with one
 * model and one agent with two models, so the leaderboard and the model pages show agent and model apart.
 */
const THIRD_PARTY_AGENTS = ['claude-code', 'codex'];
const THIRD_PARTY_DOMAINS = ['git_clean', 'merge_conflicts', 'blame_forensics'];
function thirdPartyConfig() {
  const ids = pickFixtureIds(suiteFixtures(path.join(root, SUITE_DIR)), null).filter((id) =>
    THIRD_PARTY_DOMAINS.includes(id.split('/')[0]!),
  );
  return {
    name: 'Demo: third-party agents (claude-code, codex) × oracle, nop',
    createdBy: 'npm run demo',
    models: ['oracle', 'nop'],
    outputModes: ['agent'],
    agents: THIRD_PARTY_AGENTS,
    agent: { toolSet: 'default', limits: { maxTurns: 20, commandTimeoutMs: 30_000 } },
    fixtures: { suiteDir: SUITE_DIR, ids },
    trials: 1,
    seed: 7,
  };
}

/**
 * Each agent's image (npm install of the pinned version into an image on the sandbox image), built once
 * per content and found by its tag afterwards, as a worker would on the first attempt; built here first
 * so the attempts do not wait on it. A build that fails (no npm registry) leaves the campaign out.
 */
async function buildThirdPartyImages(): Promise<boolean> {
  const sandboxImage = process.env.GITBENCH_SANDBOX_IMAGE;
  if (!sandboxImage) {
    say('no third-party agent campaign: GITBENCH_SANDBOX_IMAGE is not set');
    return false;
  }
  const stagingRoot = path.join(process.env.GITBENCH_STATE_DIR ?? path.join(root, '.gitbench'), 'agent-staging');
  for (const name of THIRD_PARTY_AGENTS) {
    const adapter = findAgent(name);
    const started = Date.now();
    say(
      `the ${adapter.displayName} ${adapter.version} image: building on first run ` +
        `(npm install inside docker, a few minutes); the dashboard is up meanwhile`,
    );
    try {
      const image = await buildAgentImage(adapter, { sandboxImage, stagingRoot });
      say(`${image.tag} ${image.built ? `built in ${Math.round((Date.now() - started) / 1000)} s` : 'already built'}`);
    } catch (err) {
      say(
        `no third-party agent campaign: the ${name} image could not be built: ${(err as Error).message.slice(0, 500)}`,
      );
      return false;
    }
  }
  return true;
}

const databaseUrl = process.env.DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/gitbench';
const legacyDir = defaultLegacyResultsDir(root);
const legacy = await importLegacyResults(databaseUrl, legacyDir);
say(
  legacy === null
    ? `no upstream results at ${legacyDir}: no legacy campaigns imported`
    : `legacy campaigns ready: ${legacy.length} upstream result file(s)`,
);
await waitForWebApp();
const db = createDb({ databaseUrl, maxConnections: 2 });
try {
  const admin = await db.user.findFirst({
    where: { role: 'admin' },
    orderBy: { createdAt: 'asc' },
    select: { id: true, role: true },
  });
  if (!admin) throw new Error('no admin exists to launch the demo campaign as');
  // In-process, from the server's own shell, as the admin signed in: only a session may mint a token.
  const manager = { ...admin, via: 'session' as const };
  const made = await createApiToken(db, manager, { name: 'npm run demo', role: 'member' });
  token = made.token;
  try {
    await launchCampaign('demo campaign', demoConfig());
    await launchCampaign('agent campaign', agentConfig());
    const hard = await hardConfig();
    if ('skipped' in hard) say(`no hard-tier campaign: ${hard.skipped}`);
    else {
      await launchCampaign(`hard-tier campaign (${hard.fixtures} fixtures of ${HARD_SUITE_DIR})`, hard.config);
      say(
        `item analysis of the hard tier, the built-in agents counted: ${baseUrl}/suites/${HARD_SUITE_DIR}?controls=1`,
      );
    }
    say(`dashboard: ${baseUrl} (up; the campaigns above are running)`);
    if (await buildThirdPartyImages()) await launchCampaign('third-party agent campaign', thirdPartyConfig());
  } finally {
    await revokeApiToken(db, made.id, manager);
  }
} finally {
  await db.$disconnect();
}
