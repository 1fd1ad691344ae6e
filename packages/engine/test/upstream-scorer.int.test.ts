import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import {
  GLOBAL_GITCONFIG,
  parseFixtureFile,
  parsePyYamlDocument,
  SETUP_GIT_CONFIG,
  type Fixture,
} from '@gitbench/core';
import type { DockerSandboxDriver } from '@gitbench/sandbox';
import { afterAll, describe, expect, it } from 'vitest';
import { UPSTREAM_ROOT } from '../../core/test/fixtures/upstream-data';
import type { AnswerMode } from '@gitbench/core';
import { buildFixtureRepositories, mapPool, scoreAttempt, type BuiltSnapshot } from '../src';
import { useTestDriver } from './test-driver';

/**
 * Our scorers against upstream GitBench's own Python code, on the same inputs. Every fixture of the
 * forms corpus (test/upstream/forms: every form upstream's loader, scorers and contracts accept) is
 * loaded by both loaders, and every answer it lists is scored by upstream's benchmark code (in a
 * repository its own set-up built on this host) and by ours (in a Docker sandbox): the verdict and the
 * score must be the same. The odd files in test/upstream/loader-forms are only loaded.
 *
 * This test needs /usr/bin/python3 with python3-yaml and upstream's harness; without them it fails.
 */

const PYTHON = '/usr/bin/python3';
const HARNESS = join(UPSTREAM_ROOT, 'harness');
const FORMS = join(import.meta.dirname, 'upstream/forms');
const LOADER_FORMS = join(import.meta.dirname, 'upstream/loader-forms');
const BRIDGE = join(import.meta.dirname, 'upstream/upstream_verdicts.py');

if (!existsSync(PYTHON))
  throw new Error(
    `${PYTHON} is missing: the upstream agreement test runs ` +
      `upstream's scorer with it (apt-get install python3 python3-yaml)`,
  );
if (!existsSync(join(HARNESS, 'gitbench/harness/scorer.py')))
  throw new Error(`upstream's harness is missing at ${HARNESS}: set GITBENCH_UPSTREAM_DIR`);
if (spawnSync(PYTHON, ['-c', 'import yaml']).status !== 0)
  throw new Error(`${PYTHON} cannot import yaml: apt-get install python3-yaml`);

interface Case {
  benchmark: string;
  fixture: string;
  mode: AnswerMode;
  answer: string;
}
interface UpstreamVerdict {
  passed?: boolean;
  similarity?: number;
  error?: string | null;
  operational?: boolean;
  crash?: string;
}
type UpstreamLoad = { fixtures: Record<string, unknown>[] } | { error: string };

function yamlFiles(root: string): string[] {
  return readdirSync(root, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && e.name.endsWith('.yaml'))
    .map((e) => join(e.parentPath, e.name))
    .sort();
}

const scratch = mkdtempSync(join(tmpdir(), 'gitbench-upstream-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** Upstream's answers run on this host: give them the identity and defaults our sandboxes have. */
function upstreamEnv(): NodeJS.ProcessEnv {
  const config = join(scratch, 'gitconfig');
  writeFileSync(
    config,
    GLOBAL_GITCONFIG +
      SETUP_GIT_CONFIG.map(([k, v]) => `[${k.split('.')[0]}]\n\t${k.split('.').slice(1).join('.')} = ${v}\n`).join(''),
  );
  return {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: scratch,
    GIT_CONFIG_GLOBAL: config,
    GIT_CONFIG_NOSYSTEM: '1',
    TZ: 'UTC',
    LC_ALL: 'C.UTF-8',
    TMPDIR: scratch,
  };
}

function askUpstream(request: { loads: string[]; cases: Case[] }): {
  loads: UpstreamLoad[];
  verdicts: UpstreamVerdict[];
} {
  const run = spawnSync(PYTHON, [BRIDGE, HARNESS, FORMS], {
    input: JSON.stringify(request),
    env: upstreamEnv(),
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  if (run.status !== 0) throw new Error(`upstream's harness failed (${run.status}): ${run.stderr.slice(-3000)}`);
  return JSON.parse(run.stdout) as { loads: UpstreamLoad[]; verdicts: UpstreamVerdict[] };
}

/** The corpus: our fixtures and, per fixture, the answers its `answers` key lists by output mode. */
function corpus(): { fixtures: Fixture[]; cases: Case[]; files: string[] } {
  const fixtures: Fixture[] = [];
  const cases: Case[] = [];
  const files = yamlFiles(FORMS);
  for (const file of files) {
    const path = relative(FORMS, file);
    const benchmark = path.split('/')[0] as string;
    const text = readFileSync(file, 'utf8');
    const parsed = parseFixtureFile({ path, text, domain: benchmark });
    expect(parsed.errors, path).toEqual([]);
    fixtures.push(...parsed.fixtures);
    const raw = parsePyYamlDocument(text).toJS() as unknown;
    for (const item of Array.isArray(raw) ? raw : [raw]) {
      const { id, answers } = item as { id: string; answers?: Partial<Record<AnswerMode, string[]>> };
      for (const mode of ['text', 'json_schema'] as const) {
        for (const answer of answers?.[mode] ?? [])
          cases.push({ benchmark, fixture: String(id), mode, answer: String(answer) });
      }
    }
  }
  return { fixtures, cases, files };
}

const TEMPLATE = /\{\{(full|short|FULL|SHORT):([^}]*)\}\}/g;

/** `{{full:<subject>}}` as the commit with that subject in our repository. */
function resolveTemplates(answer: string, snapshot: BuiltSnapshot): string {
  return answer.replace(TEMPLATE, (_, kind: string, subject: string) => {
    const commit = snapshot.commits.find((c) => c.subject === subject);
    if (!commit) throw new Error(`no commit "${subject}" in ${snapshot.domain}/${snapshot.fixtureId}`);
    const id = kind.toLowerCase() === 'full' ? commit.hash : commit.hash.slice(0, 7);
    return kind === kind.toUpperCase() ? id.toUpperCase() : id;
  });
}

let driver: DockerSandboxDriver;
const runLabel = useTestDriver('upstream-scorer', (d) => (driver = d));

describe("agreement with upstream's scorer on every accepted form", () => {
  const { fixtures, cases, files } = corpus();

  it('covers every scoring type but llm_judge, every assertion type and every structured-output strategy', () => {
    const types = new Set(fixtures.map((f) => f.scoring.type));
    for (const type of [
      'exact_match',
      'similarity',
      'unordered_line_set',
      'numeric_exact',
      'json_semantic_equal',
      'command_equivalence',
      'structured',
      'state_assertions',
      'resolved_file_blocks',
      'commit_selection',
      'commit_hash_by_subject',
      'bisect_regression',
      'reflog_recovery',
      'stash_recovery',
    ]) {
      expect(types, type).toContain(type);
    }
    const assertions = new Set(
      fixtures.flatMap((f) =>
        ((f.scoring.expected_state as { assertions?: { type: string }[] } | undefined)?.assertions ?? []).map(
          (a) => a.type,
        ),
      ),
    );
    expect([...assertions].sort()).toEqual([
      'branch_exists',
      'dir_exists',
      'dir_not_exists',
      'file_content',
      'file_exists',
      'file_not_contains',
      'file_not_exists',
      'git_config',
      'git_output',
      'model_output',
    ]);
    expect(cases.length).toBeGreaterThan(250);
  });

  it('scores every answer as upstream does: same verdict, same score', { timeout: 900_000 }, async () => {
    const upstream = askUpstream({ loads: files, cases });
    const built = await buildFixtureRepositories(fixtures, driver, { labels: runLabel });
    const snapshots = new Map<string, BuiltSnapshot>();
    for (const b of built) {
      if (b.error) throw new Error(`${b.fixture.domain}/${b.fixture.id} did not build: ${b.error.message}`);
      snapshots.set(`${b.fixture.domain}/${b.fixture.id}`, b.snapshot);
    }
    const byKey = new Map(fixtures.map((f) => [`${f.domain}/${f.id}`, f]));
    const disagreements: string[] = [];
    const tally = new Map<string, number>();
    await mapPool(cases, 3, async (c, i) => {
      const key = `${c.benchmark}/${c.fixture}`;
      const fixture = byKey.get(key) as Fixture;
      const snapshot = snapshots.get(key) as BuiltSnapshot;
      const theirs = upstream.verdicts[i] as UpstreamVerdict;
      const where = `${key} [${c.mode}] ${JSON.stringify(c.answer).slice(0, 90)}`;
      if (theirs.crash) {
        disagreements.push(`${where}: upstream crashed: ${theirs.crash.slice(-400)}`);
        return;
      }
      const ours = await scoreAttempt({
        fixture,
        snapshot,
        driver,
        outputMode: c.mode,
        prompt: '',
        output: resolveTemplates(c.answer, snapshot),
        labels: runLabel,
      });
      const type = fixture.scoring.type;
      tally.set(type, (tally.get(type) ?? 0) + 1);
      // Upstream rounds its similarity to 4 places.
      const ourScore = Math.round(ours.score * 10_000) / 10_000;
      if (
        ours.passed !== theirs.passed ||
        ourScore !== theirs.similarity ||
        (theirs.operational ?? false) !== (ours.outcome === 'CONFIG_ERROR')
      ) {
        const why = ours.checks.filter((k) => !k.ok).map((k) => `${k.check}: ${k.detail}`);
        disagreements.push(
          `${where}: ` +
            `upstream ${theirs.passed ? 'pass' : 'fail'} ${theirs.similarity}` +
            `${theirs.operational ? ' (operational)' : ''} ` +
            `(${theirs.error ?? ''}); ` +
            `ours ${ours.outcome} ${ourScore} (${why.join('; ')})`,
        );
      }
    });
    console.log(
      `compared ${cases.length} answers by scoring type: ${[...tally].map(([t, n]) => `${t} ${n}`).join(', ')}`,
    );
    expect(disagreements).toEqual([]);
  });

  it("loads every corpus file to the fixtures upstream's loader makes of it", () => {
    const upstream = askUpstream({ loads: files, cases: [] });
    files.forEach((file, i) => {
      const load = upstream.loads[i] as UpstreamLoad;
      if ('error' in load) throw new Error(`upstream refused ${file}: ${load.error}`);
      const path = relative(FORMS, file);
      const ours = parseFixtureFile({
        path,
        text: readFileSync(file, 'utf8'),
        domain: path.split('/')[0] as string,
      }).fixtures;
      expect(ours.map(comparable), path).toEqual(load.fixtures.map(upstreamComparable));
    });
  });
});

/** The fields both loaders produce, in upstream's terms (upstream's empty difficulty is our `unspecified`). */
function comparable(f: Fixture): Record<string, unknown> {
  return {
    id: f.id,
    description: f.description,
    setup: f.setup,
    prompt: f.prompt,
    expected: f.expected,
    scoring: f.scoring,
    purpose: f.purpose ?? '',
    difficulty: f.difficulty === 'unspecified' ? '' : f.difficulty,
    tags: f.tags,
    output_schema: f.output_schema ?? null,
    structured_output: f.structured_output ?? null,
  };
}

function upstreamComparable(f: Record<string, unknown>): Record<string, unknown> {
  const scoring = f.scoring as Record<string, unknown>;
  return {
    id: f.id,
    description: f.description ?? '',
    setup: f.setup,
    prompt: f.prompt,
    expected: f.expected,
    // Ours names the scoring type even when the file leaves it to the default.
    scoring: { type: 'similarity', ...scoring },
    purpose: f.purpose ?? '',
    difficulty: f.difficulty,
    tags: f.tags,
    output_schema: f.output_schema ?? null,
    structured_output: f.structured_output ?? null,
  };
}

describe("files upstream's loader treats specially", () => {
  /**
   * Where we differ from upstream's loader, on purpose: it refuses an id or expected answer that is
   * not text (we read them as text, with a lint warning), and it loads an unknown scoring type whose
   * every attempt then fails as a scoring error (we refuse the fixture, naming the field).
   */
  const EXPECTED: Record<string, 'same' | 'we accept' | 'we refuse'> = {
    'git_show/numeric-id.yaml': 'we accept',
    'git_show/expected-number.yaml': 'we accept',
    'git_show/unknown-scoring-type.yaml': 'we refuse',
  };

  it('agrees with every other verdict of upstream’s loader, fixture by fixture', () => {
    const files = yamlFiles(LOADER_FORMS);
    expect(files.length).toBeGreaterThan(10);
    const upstream = askUpstream({ loads: files, cases: [] });
    files.forEach((file, i) => {
      const path = relative(LOADER_FORMS, file);
      const load = upstream.loads[i] as UpstreamLoad;
      const ours = parseFixtureFile({ path, text: readFileSync(file, 'utf8'), domain: path.split('/')[0] as string });
      const expectation = EXPECTED[path] ?? 'same';
      if (expectation === 'we accept') {
        expect('error' in load, `${path}: upstream refuses it`).toBe(true);
        expect(ours.errors, path).toEqual([]);
        expect(ours.warnings.length, `${path}: lint says why`).toBeGreaterThan(0);
      } else if (expectation === 'we refuse') {
        expect('fixtures' in load, `${path}: upstream loads it`).toBe(true);
        expect(ours.errors.length, path).toBeGreaterThan(0);
      } else if ('error' in load) {
        expect(ours.errors.length, `${path}: upstream refuses it (${load.error})`).toBeGreaterThan(0);
      } else {
        expect(ours.errors, path).toEqual([]);
        expect(ours.fixtures.map(comparable), path).toEqual(load.fixtures.map(upstreamComparable));
      }
    });
  });
});
