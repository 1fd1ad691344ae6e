/**
 * Builds the hard tier's semantic-merge and backport tasks (fixtures/hard) from local mirrors of
 * permissively licensed projects, as listed in scripts/hard-sources.json:
 *
 *   npx tsx scripts/hard-mine.ts [--out fixtures/hard] [--sources scripts/hard-sources.json]
 *
 * Like scripts/ggb-mine.ts (whose git plumbing it shares, scripts/lib/history-mining.ts), each task
 * keeps only the history it needs: its commits are re-created with their original message, identity
 * and dates over trees cut down to the project's `keep` paths (code, tests, licence), written as a git
 * bundle; the original commit ids are recorded beside the re-created ones. Unlike GitGoodBench, the
 * project's tests decide, so the miner runs them (Debian's python3 and pytest, as the sandbox has) and
 * keeps a task only when they discriminate:
 *
 * - semantic merge: the tests (the real merge's, pinned) pass on the real resolution and fail when the
 *   conflicts are resolved by keeping our side, their side, or both (git merge-file --ours/--theirs/--union);
 * - backport: on each release line the tests (the line's own plus the fix's regression test, ported and
 *   pinned) fail before the port and pass after it (the port is a patch under scripts/hard-ports/<id>/).
 *
 * Deterministic: the same mirrors give byte-identical bundles, test archives and YAML.
 *
 * Needs Debian's python3 with pytest on this host (`apt-get install python3-pytest`; `bash scripts/setup.sh`
 * installs it): a python3 from a version manager, or pip's pytest, would judge the tests differently from the
 * sandbox. The mirrors come from the `fetch` tool or `git clone --mirror`; `mirror` in the sources names them.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { stringify } from 'yaml';
import { COMMAND_TIME_LIMIT } from '../packages/core/src/fixtures/render-prompt';
import { shellQuote } from '../packages/core/src/shell-quote';
import {
  bundle,
  commitMeta,
  git,
  gitBuf,
  recreate,
  restrictedTree,
  scratchRepo,
  testsArchive,
  type CommitMeta,
} from './lib/history-mining';
import { blindHistory, pathsUnder, withBlindOriginals } from './lib/blind-merge';
import { blindBundle, blindChain, commitTrees, oursTrees, testsGroups, treeWithoutAll } from './lib/blind-rebase';
import { heldOutSource, portedHeldOut, replayFailures, withHeldOut } from './lib/held-out';

interface Project {
  repo: string;
  mirror: string;
  licence: string;
  /** Paths of the project kept in every re-created tree (those a commit lacks are skipped). */
  keep: string[];
  /** The tests directory, pinned by the fixture as a .tar.gz overlay. */
  tests: string;
  pythonpath: string[];
  command: string;
  /**
   * Why the command leaves tests out, told in the ticket (a test that fails upstream or races is left out, never a
   * discriminating one).
   */
  deselected?: string;
  /**
   * Stand-ins for test-only dependencies the sandbox lacks: every file of `from` (under scripts/hard-ports) is added
   * to every re-created tree under `dir` (a directory inside the tests, so the pinned copy carries them too, and on
   * `pythonpath`). `note` is the ticket's sentence about them; the fixture's `staged` names them too. `blindNote` is
   * the sentence a blind merge's ticket says instead (its repository holds no tests, so no shims either): what the
   * checkout lacks, and whether the project's code needs it.
   */
  shims?: { from: string; dir: string; note: string; blindNote?: string };
}

interface MergeSpec {
  id: string;
  project: string;
  /** The real merge: its parents are the two sides, its tree the resolution. */
  merge?: string;
  /**
   * Instead of `merge`, a merge the task makes of two real commits that upstream never merged as such. Its
   * resolution is a real commit holding part of the work (`resolutionBase`, e.g. upstream's own merge of an
   * earlier point of `theirs`) plus the rest resolved by hand: scripts/hard-ports/<id>/resolution.patch.
   */
  composed?: { ours: string; theirs: string; resolutionBase: string };
  /** The incoming branch's name in the task (the real branch the merge brought in). */
  theirsBranch: string;
  /**
   * The branch checked out, the merge's first parent (main unless the real merge brought main into a feature branch).
   */
  oursBranch?: string;
  /**
   * The mistake the task is built to catch, as a hypothesis for its calibration (recorded as `scoring.trap`): what a
   * hurried engineer does with this merge that a careful one does not.
   */
  trap?: string;
  /**
   * Plausible wrong resolutions, each a negative the tests must fail. `conflicts-only` the miner builds: the conflicted
   * paths as the real merge resolved them (deleted where it deleted them), every other path as git merged it, which
   * is wrong where the real merge changed more than its conflicts (an evil merge). Any other name is a patch,
   * scripts/hard-ports/<id>/<name>.patch, applied over that tree.
   */
  wrongResolutions?: {
    name: string;
    why: string;
    /**
     * The mistake the held-out tests are there for: the miner keeps it only when every test in the repository passes
     * on it (the merge's own tests, pinned) and the held-out ones fail.
     */
    passesVisible?: boolean;
  }[];
  /**
   * What the ticket must say about the pinned tests besides "both sides' tests": where one side's tests, adapted to the
   * other's API, check the merged code in a way the conflicts do not show.
   */
  testsNote?: string;
  /**
   * Held-out tests: the files of scripts/hard-ports/<id>/held-out/, added to the pinned tests archive only (never to
   * the bundle), so the attempt can neither read nor run them. `note` is the ticket's prose of the behaviours they
   * check (never their code); `origin` says whose they are (upstream's, with the commit, or hand-written), for
   * `scoring.source.staged`; `commits` names any upstream commit they come from.
   */
  heldOut?: { note: string; origin: string; commits?: Record<string, string> };
  /**
   * Where the real merge itself misses what the ticket asks (its tree fails a held-out test), what it misses: the
   * reference is the real merge with scripts/hard-ports/<id>/resolution.patch applied, and the real merge as upstream
   * committed it becomes a negative (`upstream-merge`).
   */
  completion?: string;
  /**
   * A blind variant of the task `of` (the same merge and ports, read from scripts/hard-ports/<of>/ where
   * scripts/hard-ports/<id>/ lacks a file): no commit of the bundle holds the tests directory, so the attempt cannot
   * run the project's tests and must resolve each conflict from the two sides' changes. Only the checker's pinned copy
   * of the merged tests (and any held-out ones) decides. `note` is the ticket's statement of every behaviour the
   * pinned tests expect that neither side's diff settles (a choice upstream made, told so that a failure is the
   * resolver's own mistake).
   */
  blind?: { of: string; note?: string };
}

interface BackportSpec {
  id: string;
  project: string;
  fix: string;
  /** Newest line first; each line's port is scripts/hard-ports/<id>/<branch>.patch against its tag. */
  lines: { branch: string; tag: string }[];
  /**
   * Plausible wrong ports, each a negative: scripts/hard-ports/<id>/<name>/<branch>.patch against the line's tag
   * (a line without one gets the right port). The miner keeps one only if the tests fail on at least one line.
   */
  wrongPorts?: { name: string; why: string; passesVisible?: boolean }[];
  /**
   * Held-out tests, as for a semantic merge: the files of scripts/hard-ports/<id>/held-out/, added to every line's
   * pinned tests archive only (never to the bundle or a reference port). A wrong port with `passesVisible` must pass
   * the tests the attempt can see (the line's own and the ported regression test, the reference port's tests alone)
   * on every line and fail the held-out ones on one: the miner checks both.
   */
  heldOut?: MergeSpec['heldOut'];
  /**
   * Where the project's tests need something the sandbox lacks (a test-only dependency), the adaptation of the
   * test harness: scripts/hard-ports/<id>/harness/<branch or main>.patch, applied to every line's tip and to main
   * (the fix and its parent) before anything else. The ticket says so, with these words.
   */
  harness?: string;
  /** What else the ticket must say about this fix (a later correction upstream needed, checked by a named test). */
  note?: string;
}

interface RebaseSpec {
  id: string;
  project: string;
  /** The real branch point, and the real main the branch is replayed onto. */
  base: string;
  onto: string;
  /** The branch's commits, oldest first, each re-created from its first-parent change. */
  commits: string[];
  /**
   * Commits (1-based) made after the branch merged main in: their first-parent change is against that merge and does
   * not apply to the branch re-created without its merges, so it is read from scripts/hard-ports/<id>/branch/NN.patch
   * (the same change, made by hand to the branch as re-created). The source block says so.
   */
  linearized?: number[];
  branch: string;
  /** A short account of how main moved, for the ticket. */
  mainMoved: string;
  /**
   * The real merge of the branch into main, when it resolves the rebase: if every file the branch changes is
   * changed by one of its commits only, that commit replayed is main plus those files as the merge has them.
   * Without it, the rebase made by hand is read from scripts/hard-ports/<id>/NN.patch.
   */
  fromMerge?: string;
  /**
   * The command `tests_pass_each` runs at every replayed commit (with main's tests pinned), when the project's whole
   * command would make the oracle's run too long; `eachNote` is the ticket's sentence for it.
   */
  eachCommand?: string;
  eachNote?: string;
  /**
   * Which commits can end up empty in this rebase and that they are kept, in the ticket's words; without it the
   * ticket has a general line (a commit main already has is kept as an empty commit).
   */
  emptyNote?: string;
  /**
   * Commits (1-based) whose originals already failed the tests (work in progress fixed later on the branch): left out
   * of `tests_pass_each`, the ticket says why.
   */
  eachExempt?: { commits: number[]; why: string };
  /**
   * Plausible wrong replays, each a negative: scripts/hard-ports/<id>/<name>/NN.patch for every commit, like the
   * reference's. The miner keeps one only if main's tests fail at one of its commits or the tip's tests fail at its
   * tip. `passesVisible` marks the mistake held-out tests are there for: kept only when every test the attempt can run
   * passes at every commit and a held-out one fails at one.
   */
  wrongReplays?: { name: string; why: string; passesVisible?: boolean }[];
  /**
   * What the branch holds, for the ticket's first sentence (default: "<n> real fixes made on the maintenance line").
   */
  about?: string;
  /**
   * What the task stages on main (scripts/hard-ports/<id>/main.patch, applied to `onto` before anything else): a test
   * of main's own behaviour that upstream's change came without, so that undoing main's work is caught. The ticket and
   * `scoring.source.staged` say so, with these words.
   */
  mainStaged?: string;
  /**
   * Held-out tests (scripts/hard-ports/<id>/held-out/, laid into main's pinned tests; the attempt never sees them), run
   * with `command` at every replayed commit but the `exempt` ones (1-based): they reach the branch's code where its own
   * tests do not and main changed what that code relies on. `note` is the ticket's account of them (that they exist and
   * what they cover, never their code); `origin` says who wrote them (upstream, with the commit, or by hand) for
   * `scoring.source`. The reference must pass them, and a wrong replay is kept when they alone fail it.
   */
  heldOut?: { command: string; note: string; origin: string; exempt?: number[] };
  /** The mistake the task is built to catch, as a hypothesis for its calibration (recorded as `scoring.trap`). */
  trap?: string;
  /** Where the pinned tests of the tip differ from the branch's own (adapted to main), in the ticket's words. */
  tipNote?: string;
  /**
   * A blind variant of the rebase `of` (the same branch, main and ports, read from scripts/hard-ports/<of>/): no commit
   * of the bundle holds the tests directory, and the checker runs, at each rebased commit, the tests the reference
   * rebase has there (scripts/lib/blind-rebase.ts). `also` names other directories of tests that older commits hold
   * (a layout the project left), taken out too.
   */
  blind?: { of: string; also?: string[] };
}

interface Sources {
  projects: Record<string, Project>;
  /** A blind variant names only what differs from its original (withBlindOriginals fills in the rest). */
  semanticMerges: (MergeSpec | (Partial<MergeSpec> & Pick<MergeSpec, 'id' | 'blind'>))[];
  backports: BackportSpec[];
  rebases: (RebaseSpec | (Partial<RebaseSpec> & Pick<RebaseSpec, 'id' | 'blind'>))[];
}

const sh = shellQuote;
const b64 = (b: Buffer | string) => (typeof b === 'string' ? Buffer.from(b, 'utf8') : b).toString('base64');
const subjectOf = (m: CommitMeta) => m.message.split('\n')[0]!.trim();
const BUNDLE = '.hard.bundle';
/** Python modules the host's Debian python3 has (as dependencies of other packages) and the sandbox image lacks. */
const SANDBOX_LACKS = ['six'];
/** Files the scorer's test run removes from a tree before laying the pinned ones over it (tests-run.py). */
const HARNESS_FILES = new Set([
  'conftest.py',
  'sitecustomize.py',
  'usercustomize.py',
  'pytest.ini',
  'tox.ini',
  'setup.cfg',
  'pyproject.toml',
  'pytest.py',
  'py.py',
]);

function keptPaths(repo: string, commit: string, keep: string[]): string[] {
  const top = new Set(git(repo, ['ls-tree', '--name-only', commit]).split('\n').filter(Boolean));
  return keep.filter((p) => top.has(p.split('/')[0]!));
}

/** `tree` with the project's shims added (see Project.shims); `tree` itself when it has none. */
function shimmed(scratch: string, p: Project, tree: string): string {
  if (!p.shims) return tree;
  const from = resolve('scripts/hard-ports', p.shims.from);
  const files = Object.fromEntries(
    execFileSync('ls', [from], { encoding: 'utf8' })
      .split('\n')
      .filter(Boolean)
      .map((name) => [`${p.shims!.dir}/${name}`, readFileSync(join(from, name))]),
  );
  return withFiles(scratch, tree, files);
}

/** A commit re-created over the kept paths of `original`'s tree (or of `treeFrom`), with the project's shims. */
function trimmed(scratch: string, p: Project, original: string, parents: string[], treeFrom = original): string {
  return recreate(
    scratch,
    commitMeta(p.mirror, original),
    shimmed(scratch, p, restrictedTree(scratch, treeFrom, keptPaths(p.mirror, treeFrom, p.keep))),
    parents,
  );
}

/**
 * Runs the project's tests on a tree the way the scorer does (tests-run.py): the tree written out of
 * the object database, harness files removed, the pinned tests laid over it, a clean environment and
 * an empty pytest.ini above the tree (so the project's own pytest configuration is not read).
 */
function runTests(
  scratch: string,
  tree: string,
  p: Project,
  testsTarGz: string,
): { passed: boolean; exit: number; summary: string } {
  const work = mkdtempSync(join(tmpdir(), 'hard-tests-'));
  try {
    const root = join(work, 'tree');
    mkdirSync(root);
    writeFileSync(join(work, 'pytest.ini'), '');
    execFileSync('tar', ['-x', '-C', root], { input: gitBuf(scratch, ['archive', '--format=tar', tree]) });
    for (const f of execFileSync('find', [root, '-type', 'f'], { encoding: 'utf8' }).split('\n').filter(Boolean)) {
      const name = f.split('/').pop()!;
      if (HARNESS_FILES.has(name) || name.endsWith('.pth') || name.endsWith('.pyc')) rmSync(f);
    }
    rmSync(join(root, p.tests), { recursive: true, force: true });
    mkdirSync(join(root, p.tests), { recursive: true });
    execFileSync('tar', ['-xz', '-C', join(root, p.tests), '-f', testsTarGz]);
    mkdirSync(join(work, 'home'));
    mkdirSync(join(work, 'tmp'));
    // Modules this machine's Debian python3 has and the sandbox image lacks are hidden, so that a tree importing one
    // fails here as it fails there (more-itertools-lr06: a clean replay brings back `from six import ...`).
    mkdirSync(join(work, 'absent'));
    for (const m of SANDBOX_LACKS)
      writeFileSync(
        join(work, 'absent', `${m}.py`),
        `raise ModuleNotFoundError("No module named '${m}'", name='${m}')\n`,
      );
    const env: Record<string, string> = {
      PATH: `${join(work, 'bin')}:/usr/bin:/bin`,
      HOME: join(work, 'home'),
      TMPDIR: join(work, 'tmp'),
      LANG: 'C.UTF-8',
      LC_ALL: 'C.UTF-8',
      TZ: 'UTC',
      PYTHONDONTWRITEBYTECODE: '1',
      PYTHONNOUSERSITE: '1',
      PYTHONHASHSEED: '0',
      PYTHONPATH: [...p.pythonpath.map((d) => join(root, d)), join(work, 'absent')].join(':'),
    };
    // Debian's interpreter (with python3-pytest), as in the sandbox, whatever python3 is first on PATH here.
    mkdirSync(join(work, 'bin'));
    execFileSync('ln', ['-s', '/usr/bin/python3', join(work, 'bin', 'python3')]);
    const run = spawnSync('/bin/bash', ['-c', p.command], {
      cwd: root,
      env,
      encoding: 'utf8',
      timeout: 300_000,
      maxBuffer: 64 * 1024 * 1024,
    });
    const out = `${run.stdout ?? ''}${run.stderr ?? ''}`;
    const summary =
      out
        .trim()
        .split('\n')
        .reverse()
        .find((l) => /\bin [0-9.]+s\b/.test(l)) ??
      out.trim().split('\n').at(-1) ??
      '';
    const failed = out
      .split('\n')
      .filter((l) => /^(FAILED|ERROR) /.test(l))
      .slice(0, 3);
    if (process.env.HARD_MINE_DEBUG && run.status !== 0) process.stderr.write(`${out.slice(-3000)}\n`);
    // Without the run's duration, so the YAML that quotes it is the same on every run.
    return {
      passed: run.status === 0,
      exit: run.status ?? -1,
      summary: [summary.trim().replace(/ in [0-9.]+s\b( \([0-9:]+\))?/, ''), ...failed]
        .join('; ')
        .split(`${root}/`)
        .join(''),
    };
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

/** A commit whose tree is `base`'s with some files' contents replaced (for the negative variants). */
function withFiles(scratch: string, base: string, files: Record<string, Buffer>): string {
  const index = join(scratch, '.git', 'hard-index');
  rmSync(index, { force: true });
  const env = { GIT_INDEX_FILE: index };
  git(scratch, ['read-tree', base], { env });
  for (const [path, content] of Object.entries(files)) {
    const blob = git(scratch, ['hash-object', '-w', '--stdin'], { input: content }).trim();
    git(scratch, ['update-index', '--add', '--cacheinfo', `100644,${blob},${path}`], { env });
  }
  return git(scratch, ['write-tree'], { env }).trim();
}

/** `base`'s tree with `paths` as `from` has them: replaced, added, or removed where `from` lacks them. */
function withPathsOf(scratch: string, base: string, from: string, paths: string[]): string {
  const index = join(scratch, '.git', 'hard-index');
  rmSync(index, { force: true });
  const env = { GIT_INDEX_FILE: index };
  git(scratch, ['read-tree', base], { env });
  for (const path of paths) {
    const entry = git(scratch, ['ls-tree', from, '--', path]).trim();
    const m = /^([0-7]{6}) blob ([0-9a-f]+)\t/.exec(entry);
    if (m) git(scratch, ['update-index', '--add', '--cacheinfo', `${m[1]},${m[2]},${path}`], { env });
    else git(scratch, ['update-index', '--force-remove', '--', path], { env });
  }
  return git(scratch, ['write-tree'], { env }).trim();
}

function conflictedFiles(scratch: string, ours: string, theirs: string): string[] {
  const out = git(scratch, ['merge-tree', '--write-tree', '--name-only', '--no-messages', ours, theirs], {
    allowFail: true,
  });
  if (!out.startsWith('\u0000EXIT1\u0000')) return [];
  return out.slice('\u0000EXIT1\u0000'.length).split('\n').slice(1).filter(Boolean);
}

/**
 * The blobs of each conflicted path's stages (1 base, 2 ours, 3 theirs), as `git merge` leaves them in the index:
 * from merge-tree's conflicted file info, so that a file one side renamed is read under the other side's name too.
 */
function conflictStages(mergeTreeOutput: string): Map<string, Record<string, string>> {
  const stages = new Map<string, Record<string, string>>();
  for (const line of mergeTreeOutput.split('\n').slice(1)) {
    const m = /^[0-7]{6} ([0-9a-f]{40,64}) ([123])\t(.+)$/.exec(line);
    if (!m) continue;
    stages.set(m[3]!, { ...stages.get(m[3]!), [m[2]!]: m[1]! });
  }
  return stages;
}

/** git merge-file over the three stages of a path, resolving every conflict one way. */
function mergeFile(
  scratch: string,
  how: 'ours' | 'theirs' | 'union',
  base: string,
  ours: string,
  theirs: string,
  path: string,
  stages?: Record<string, string>,
): Buffer {
  const dir = mkdtempSync(join(tmpdir(), 'hard-mf-'));
  try {
    const read = (rev: string, stage: string) => {
      const r = spawnSync('git', ['cat-file', 'blob', stages ? (stages[stage] ?? '0'.repeat(40)) : `${rev}:${path}`], {
        cwd: scratch,
      });
      return r.status === 0 ? r.stdout : Buffer.alloc(0);
    };
    writeFileSync(join(dir, 'o'), read(ours, '2'));
    writeFileSync(join(dir, 'b'), read(base, '1'));
    writeFileSync(join(dir, 't'), read(theirs, '3'));
    const r = spawnSync('git', ['merge-file', `--${how}`, '-p', join(dir, 'o'), join(dir, 'b'), join(dir, 't')], {
      cwd: scratch,
      maxBuffer: 64 * 1024 * 1024,
    });
    return r.stdout;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * What a test run leaves in the tree and upstream's own .gitignore ignores (every project here ignores them): Python's
 * bytecode and pytest's cache. The re-created trees keep only `keep`, which leaves that file out, so without these an
 * attempt's `git add -A` after running the tests would commit them, and no check would notice.
 */
const TEST_RUN_LEFTOVERS = ['__pycache__/', '*.pyc', '.pytest_cache/'];

function setupSteps(p: Project, head = 'main'): string[] {
  // Every ref of the bundle becomes a branch; the bundle file itself does not stay in the repository.
  const fetch =
    `git init -q && git fetch -q --update-head-ok ${BUNDLE} 'refs/heads/*:refs/heads/*' ` +
    `&& rm -f ${BUNDLE} .git/FETCH_HEAD`;
  return [
    head === 'main' ? `${fetch} && git reset -q --hard main` : `${fetch} && git checkout -q ${sh(head)}`,
    // The clone's own ignore list, as a developer's checkout would have it: upstream's trees stay as they were.
    ...(p.keep.includes('.gitignore')
      ? []
      : [`printf '%s\\n' ${TEST_RUN_LEFTOVERS.map((l) => sh(l)).join(' ')} >> .git/info/exclude`]),
  ];
}

/**
 * The source block the suite records (repo_checks' `scoring.source`): original commit ids, and what the fixture made.
 */
function sourceBlock(p: Project, commits: Record<string, string>, staged: string) {
  return { repository: `https://github.com/${p.repo}`, licence: p.licence, commits, staged };
}

function testRun(p: Project, overlayAsset: string) {
  return { command: p.command, overlay: { [`${p.tests}/`]: overlayAsset }, pythonpath: p.pythonpath, timeout: 300 };
}

/**
 * The project with only the `pythonpath` entries the tree has: a missing directory on PYTHONPATH does nothing, but the
 * ticket's command should be true of the tree (marshmallow before 3.0.0rc1 has its package at the root, not in src/).
 */
function pathsIn(scratch: string, p: Project, rev: string): Project {
  // `<rev>:.` names no path to git, yet the root is always there.
  const has = (d: string) =>
    d === '.' || git(scratch, ['cat-file', '-t', `${rev}:${d}`], { allowFail: true }).trim() === 'tree';
  return { ...p, pythonpath: p.pythonpath.filter(has) };
}

/**
 * The ticket's account of a blind task: the tests are not here, why, what decides, and what the attempt may do instead.
 */
function blindSetting(p: Project, ob: string): string {
  return (
    `The project's test suite is not in this checkout: no commit of this repository holds \`${p.tests}/\` (as if ` +
    `it were kept where only CI runs it), so you cannot run it. The checker lays its own copy of \`${p.tests}/\`, ` +
    `both sides' tests as upstream merged them, over ${ob}'s tree and runs it there. Resolve each conflict so that ` +
    `${ob} keeps the behaviour of both sides, reading what each side changed (\`git diff\` of each side ` +
    `against the merge base, and the commits listed above); you may write and run scratch tests or scripts of ` +
    `your own, and anything you leave under \`${p.tests}/\` is replaced by the checker's copy.`
  );
}

function runLine(p: Project): string {
  const pp = p.pythonpath.join(':');
  return `${pp ? `PYTHONPATH=${pp} ` : ''}${p.command}`;
}

/**
 * Every task of the miner is checked by running the project's tests, which on a busy machine can outlast one
 * command: the ticket says the attempt's own limit (filled in when the prompt is rendered) before a run is cut short.
 */
const TIME_LIMIT_NOTE =
  `Each command you run is stopped after ${COMMAND_TIME_LIMIT}; if the whole test suite ` +
  `takes longer, run it in parts (a file or a -k selection at a time).`;
/** A blind merge's repository holds no test suite to run in parts: only the limit itself is news. */
const BLIND_TIME_LIMIT_NOTE = `Each command you run is stopped after ${COMMAND_TIME_LIMIT}.`;

/** The fields every task of the miner shares: a ticket for single answers and agents, the bundle, the pinned tests. */
function taskHead(
  kind: string,
  p: Project,
  id: string,
  assets: string[],
  setup: string[],
  context: string[],
  brief: string,
  answerIs: string,
  timeNote = TIME_LIMIT_NOTE,
) {
  const ticket = `${brief}\n${timeNote}`;
  return {
    difficulty: 'hard',
    tags: ['hard', kind, 'python', p.repo.split('/')[1]!],
    files: [{ asset: `_assets/bundles/${id}.bundle`, to: BUNDLE }],
    assets,
    setup,
    context,
    prompt: `${ticket}\n\nOutput a bash script, run from the repository root, that ${answerIs}.`,
    agent: { prompt: `${ticket}\n\nWork in the repository, then call submit.`, scored_on: 'repository' },
  };
}

// ---------------------------------------------------------------------------------------------------
// Semantic merges

interface Row {
  kind: string;
  id: string;
  project: Project;
  commits: string;
}

/**
 * The resolution of a composed merge: its resolution base (trimmed) with the hand-made patch applied, as a merge of the
 * two sides.
 */
function composedResolution(spec: MergeSpec, p: Project, scratch: string, parents: string[]): string {
  const c = spec.composed!;
  const meta = commitMeta(p.mirror, c.resolutionBase);
  const resolved = applied(
    scratch,
    trimmed(scratch, p, c.resolutionBase, []),
    readFileSync(mergePort(spec, 'resolution.patch')),
    meta,
  );
  return recreate(
    scratch,
    { ...meta, message: `Merge branch '${spec.theirsBranch}'\n` },
    git(scratch, ['rev-parse', `${resolved}^{tree}`]).trim(),
    parents,
  );
}

/**
 * The resolution of a merge that upstream's own merge leaves incomplete (MergeSpec.completion): that merge (re-created)
 * with the hand-made patch applied, as a merge of the same two sides, message, identity and dates.
 */
function completedMerge(spec: MergeSpec, p: Project, scratch: string, upstreamMerge: string): string {
  const meta = commitMeta(p.mirror, spec.merge!);
  const completed = applied(scratch, upstreamMerge, readFileSync(mergePort(spec, 'resolution.patch')), meta);
  return recreate(
    scratch,
    meta,
    git(scratch, ['rev-parse', `${completed}^{tree}`]).trim(),
    git(scratch, ['rev-list', '--parents', '-n1', upstreamMerge]).trim().split(' ').slice(1),
  );
}

/** The task whose ports hold a file of the merge's: its own, or (for a blind variant) the original task's. */
function mergePortOwner(spec: MergeSpec, name: string): string {
  return spec.blind && !existsSync(resolve('scripts/hard-ports', spec.id, name)) ? spec.blind.of : spec.id;
}

/** A file of the merge's ports (see mergePortOwner). */
function mergePort(spec: MergeSpec, name: string): string {
  return resolve('scripts/hard-ports', mergePortOwner(spec, name), name);
}

function semanticMerge(spec: MergeSpec, project: Project, scratch: string, out: string, rows: Row[]): void {
  const ob = spec.oursBranch ?? 'main';
  let p = project;
  if (spec.blind && p.shims && !p.shims.blindNote)
    throw new Error(`${spec.id}: a blind merge of ${p.repo} needs the shims' blindNote for its ticket`);
  const [ours, theirs, ...more] = spec.composed
    ? [spec.composed.ours, spec.composed.theirs]
    : commitMeta(p.mirror, spec.merge!).parents;
  if (!ours || !theirs || more.length) throw new Error(`${spec.id}: ${spec.merge} is not a two-parent merge`);
  const bases = git(p.mirror, ['merge-base', '--all', ours, theirs]).split('\n').filter(Boolean);
  if (bases.length !== 1) throw new Error(`${spec.id}: ${bases.length} merge bases`);
  const base = bases[0]!;
  const full = (() => {
    const b = trimmed(scratch, p, base, []);
    const o = trimmed(scratch, p, ours, [b]);
    const t = trimmed(scratch, p, theirs, [b]);
    const upstreamMerge = spec.composed ? '' : trimmed(scratch, p, spec.merge!, [o, t]);
    const m = spec.composed
      ? composedResolution(spec, p, scratch, [o, t])
      : spec.completion
        ? completedMerge(spec, p, scratch, upstreamMerge)
        : upstreamMerge;
    return { b, o, t, upstreamMerge, m };
  })();
  p = pathsIn(scratch, p, full.m);

  const testsAsset = `_assets/tests/${spec.id}.tar.gz`;
  const tarPath = join(out, testsAsset);
  // With held-out tests, the pinned archive is the merge's tests plus them; the repository's own tests alone (what
  // the attempt can run, unless the task is blind) are archived aside, to show that the mistakes they are there for
  // pass every one of those.
  const heldOut = spec.heldOut ? portedHeldOut(mergePortOwner(spec, 'held-out')) : undefined;
  const visibleTar = join(mkdtempSync(join(tmpdir(), 'hard-visible-')), 'tests.tar.gz');
  testsArchive(scratch, full.m, p.tests, visibleTar);
  if (heldOut) testsArchive(scratch, withHeldOut(scratch, `${full.m}^{tree}`, p.tests, heldOut), p.tests, tarPath);
  else testsArchive(scratch, full.m, p.tests, tarPath);
  // A blind task's history is the same history with the tests taken out of every commit (the shims under them too);
  // the pinned archive above is then the only copy of them.
  const { b, o, t, upstreamMerge, m } = spec.blind ? blindHistory(scratch, full, p.tests) : full;
  const files = conflictedFiles(scratch, o, t);
  // A modify/delete conflict is told as such: the file is missing from one side's tree.
  const lacks = (rev: string, f: string) => !git(scratch, ['ls-tree', '--name-only', rev, '--', f]).trim();
  const modifyDelete = (f: string) =>
    lacks(o, f)
      ? ` (deleted on ${ob}, modified on ${spec.theirsBranch})`
      : lacks(t, f)
        ? ` (deleted on ${spec.theirsBranch}, modified on ${ob})`
        : '';
  const code = files.filter((f) => f.endsWith('.py') && !f.startsWith(`${p.tests}/`));
  if (code.length === 0)
    throw new Error(`${spec.id}: the compact history has no conflict in code (${files.join(', ') || 'no conflict'})`);
  for (const f of files)
    if (/^<<<<<<< /m.test(git(scratch, ['cat-file', 'blob', `${m}:${f}`], { allowFail: true })))
      throw new Error(`${spec.id}: the real merge keeps conflict markers in ${f}`);

  const verdicts: Record<string, { passed: boolean; summary: string }> = {};
  verdicts.merge = runTests(scratch, m, p, tarPath);
  if (!verdicts.merge.passed)
    throw new Error(`${spec.id}: the tests fail on the real merge: ${verdicts.merge.summary}`);
  const upstreamVerdict = spec.completion ? runTests(scratch, upstreamMerge, p, tarPath) : undefined;
  if (upstreamVerdict?.passed)
    throw new Error(`${spec.id}: the tests pass on upstream's own merge: nothing for the completion to do`);
  const remerged = git(scratch, ['merge-tree', '--write-tree', '--no-messages', o, t], { allowFail: true });
  // allowFail marks a failed run as NUL EXIT<code> NUL before its output.
  const mergeTreeOutput = remerged.startsWith('\u0000') ? remerged.slice(remerged.indexOf('\u0000', 1) + 1) : remerged;
  const autoMerged = mergeTreeOutput.split('\n')[0]!;
  const stages = conflictStages(mergeTreeOutput);
  for (const how of ['ours', 'theirs', 'union'] as const) {
    const tree = withFiles(
      scratch,
      autoMerged,
      Object.fromEntries(files.map((f) => [f, mergeFile(scratch, how, b, o, t, f, stages.get(f))])),
    );
    const commit = git(scratch, ['commit-tree', tree, '-p', o, '-p', t], { input: `${how}\n` }).trim();
    verdicts[how] = runTests(scratch, commit, p, tarPath);
    if (verdicts[how].passed)
      throw new Error(`${spec.id}: the tests pass when every conflict keeps ${how}: not a semantic merge`);
  }
  const conflictsOnly = withPathsOf(scratch, autoMerged, m, files);
  const wrongTrees = (spec.wrongResolutions ?? []).map((w) => {
    const tree =
      w.name === 'conflicts-only'
        ? conflictsOnly
        : git(scratch, [
            'rev-parse',
            `${applied(
              scratch,
              recreate(scratch, commitMeta(p.mirror, ours), conflictsOnly, []),
              readFileSync(mergePort(spec, `${w.name}.patch`)),
              commitMeta(p.mirror, ours),
            )}^{tree}`,
          ]).trim();
    const commit = recreate(scratch, commitMeta(p.mirror, ours), tree, [o, t]);
    const verdict = runTests(scratch, commit, p, tarPath);
    if (verdict.passed) throw new Error(`${spec.id}: the tests pass on the wrong resolution ${w.name}`);
    if (w.passesVisible) {
      const visible = runTests(scratch, commit, p, visibleTar);
      if (!visible.passed)
        throw new Error(
          `${spec.id}: ${w.name} fails the repository's own tests (${visible.summary}), not only the held-out ones`,
        );
    }
    return { ...w, tree, summary: verdict.summary };
  });
  if (spec.completion)
    wrongTrees.unshift({
      name: 'upstream-merge',
      why: `Upstream's own merge, as committed (${spec.merge!.slice(0, 8)}), which ${spec.completion}`,
      tree: git(scratch, ['rev-parse', `${upstreamMerge}^{tree}`]).trim(),
      summary: upstreamVerdict!.summary,
      passesVisible: true,
    });
  if (spec.completion && !runTests(scratch, upstreamMerge, p, visibleTar).passed)
    throw new Error(`${spec.id}: upstream's own merge fails the repository's own tests`);
  rmSync(dirname(visibleTar), { recursive: true, force: true });
  if (spec.blind) {
    const leaked = pathsUnder(scratch, [o, t], p.tests);
    if (leaked.length) throw new Error(`${spec.id}: the blind bundle would hold ${leaked.slice(0, 3).join(', ')}`);
  }
  bundle(
    scratch,
    { [`refs/heads/${ob}`]: o, [`refs/heads/${spec.theirsBranch}`]: t },
    join(out, '_assets', 'bundles', `${spec.id}.bundle`),
  );

  // Where the hand-made ports are read from (a blind variant's may be the original task's).
  const port = (name: string) => relative(resolve('scripts/hard-ports'), mergePort(spec, name));
  const metas = {
    base: commitMeta(p.mirror, base),
    ours: commitMeta(p.mirror, ours),
    theirs: commitMeta(p.mirror, theirs),
    merge: commitMeta(p.mirror, spec.merge ?? spec.composed!.resolutionBase),
  };
  // Every subject of a side's commits to the conflicted code, newest first. The ticket is the attempt's only record
  // of them (a staged task re-creates each side as one commit), so a fix left off reads as if that side never made
  // it. Only a list of over 50 is cut, to its newest 40 (cutting a few would gain nothing), and it says so.
  const sideLog = (from: string, to: string) =>
    git(p.mirror, ['log', '--no-merges', '--format=%s', `${from}..${to}`, '--', ...code])
      .split('\n')
      .filter(Boolean);
  const sideLine = (branch: string, log: string[], tip: CommitMeta) => {
    if (!log.length) return `- ${branch}: ${subjectOf(tip)}`;
    const shown = log.length > 50 ? log.slice(0, 40) : log;
    const count =
      shown.length < log.length
        ? `the newest ${shown.length} of ${log.length} commits`
        : log.length === 1
          ? '1 commit'
          : `${log.length} commits, newest first`;
    return `- ${branch} (${count}): ${shown.join('; ')}`;
  };
  const oursLog = sideLog(base, ours);
  const theirsLog = sideLog(base, theirs);
  // The reference: the real merge's tree, reached from the conflicted state without leaving the merge.
  // From our side's tree; or, where that patch would not fit in one command line (Linux takes at most 128 KiB in
  // one argument, and the answer runs as `bash -c`), from the incoming side's (MERGE_HEAD, still set by the merge).
  const resolvedTo = (tree: string) => {
    const fromOurs = b64(gitBuf(scratch, ['diff', '--binary', '--full-index', o, tree]));
    const [start, patch] =
      fromOurs.length <= 100_000
        ? ['HEAD', fromOurs]
        : ['MERGE_HEAD', b64(gitBuf(scratch, ['diff', '--binary', '--full-index', t, tree]))];
    return [
      `git read-tree --reset -u ${start}`,
      `printf '%s' ${patch} | base64 -d | git apply --index`,
      'git commit -q --no-edit',
    ].join(' && ');
  };
  const reference = resolvedTo(m);
  const quoted = files.map(sh).join(' ');
  const resolveWith = (how: string) =>
    `for f in ${quoted}; do git show :2:"$f" > /tmp/o 2>/dev/null || : > /tmp/o; ` +
    `git show :1:"$f" > /tmp/b 2>/dev/null || : > /tmp/b; ` +
    `git show :3:"$f" > /tmp/t 2>/dev/null || : > /tmp/t; ` +
    `git merge-file --${how} /tmp/o /tmp/b /tmp/t; cp /tmp/o "$f"; done; git add -A && git commit -q --no-edit`;

  const ticket = [
    `We are merging the ${spec.theirsBranch} branch of ${p.repo.split('/')[1]} (${p.repo}) ` +
      `into ${ob}, and the merge stopped on conflicts.`,
    `The merge is already under way in this repository: ${ob} is checked out ` +
      `and \`git merge ${spec.theirsBranch}\` has run.`,
    '',
    'Conflicted files:',
    ...files.map((f) => `- ${f}${modifyDelete(f)}`),
    '',
    // Every merge of the tier is staged (each side re-created as one commit), so `git log` shows one commit a side:
    // the ticket says so, and that the list below is upstream's, so no turn goes to looking for the rest.
    'Both branches changed the logic in these regions, so neither side can simply win. In this repository each',
    "branch is one commit on the merge base (upstream's commits squashed into one); what each side did to the",
    "conflicted code since the two branches parted, in upstream's commits:",
    sideLine(ob, oursLog, metas.ours),
    sideLine(spec.theirsBranch, theirsLog, metas.theirs),
    '',
    `Finish the merge so that ${ob} keeps the behaviour of both sides, and commit it.`,
    '',
    'What is checked, on the repository you leave:',
    `- ${ob} is a merge commit whose first parent is ${ob} as it was before the merge and ` +
      `whose second parent is ${spec.theirsBranch};`,
    `- no tracked file of ${ob} holds a conflict marker line;`,
    `- the project's test suite as it stands after the merge ` +
      `(both sides' tests${spec.blind ? ' as upstream merged them' : ''}` +
      `${spec.heldOut ? ', plus held-out tests' : ''}) passes on ${ob}'s tree: \`${runLine(p)}\`.`,
    ...(spec.blind ? [`  ${blindSetting(p, ob)}`] : []),
    ...(spec.testsNote ? [`  ${spec.testsNote}`] : []),
    ...(spec.heldOut
      ? [
          `  Held-out tests: ` +
            (spec.blind
              ? `besides both sides' tests, the checker adds test files of its own to \`${p.tests}/\` that upstream ` +
                `never had; `
              : `the checker adds test files of its own to \`${p.tests}/\` that are not in this repository and that ` +
                `you cannot run; `) +
            `they check behaviour this ticket states, not any particular code. ${spec.heldOut.note}`,
        ]
      : []),
    ...(spec.blind?.note ? [`  ${spec.blind.note}`] : []),
    ...(p.deselected ? [`  ${p.deselected}`] : []),
    ...(p.shims ? [`  ${spec.blind ? p.shims.blindNote : p.shims.note}`] : []),
    ...(spec.blind
      ? []
      : [
          `  The tests are pinned: the checker runs its own copy of the merged \`${p.tests}/\` ` +
            `directory, so editing tests changes nothing.`,
        ]),
    'The merge result is not compared with any particular resolution; the tests decide.',
  ].join('\n');
  // A single answer sees the conflicts (the combined diff) and what each side brought.
  const head = taskHead(
    'semantic-merge',
    p,
    spec.id,
    [testsAsset],
    [...setupSteps(p, ob), `git merge --no-ff --no-edit ${spec.theirsBranch}`],
    ['git status --short', 'git diff'],
    ticket,
    'finishes the merge',
    spec.blind ? BLIND_TIME_LIMIT_NOTE : TIME_LIMIT_NOTE,
  );
  const doc = {
    id: spec.id,
    description: spec.blind
      ? `Blind semantic merge of ${spec.theirsBranch} into ${ob} in ${p.repo}, without the project's tests ` +
        `(semantic-merge/${spec.blind.of}'s merge): ${files.length} conflicted file(s), logic changed on both sides`
      : `Semantic merge of ${spec.theirsBranch} into ${ob} in ${p.repo}: ` +
        `${files.length} conflicted file(s), logic changed on both sides`,
    purpose: spec.blind
      ? 'Resolve a real merge whose both sides changed code logic in the conflicted regions with no test suite to ' +
        "run (the repository holds none), judged by the project's merged tests, which fail on either side alone " +
        'and on a naive union.'
      : 'Resolve a real merge whose both sides changed code logic in the conflicted regions, ' +
        "judged by the project's tests, which fail on either side alone and on a naive union.",
    ...head,
    ...(spec.blind ? { tags: [...head.tags, 'blind'] } : {}),
    expected: reference,
    scoring: {
      type: 'repo_checks',
      checks: [
        { type: 'ref_equals', ref: `${ob}^1`, commit: o },
        { type: 'ref_equals', ref: `${ob}^2`, commit: t },
        { type: 'no_conflict_markers', rev: ob },
        { type: 'tests_pass', rev: ob, ...testRun(p, testsAsset) },
      ],
      reference_tool_calls: [{ name: 'bash', args: { command: reference } }],
      source: sourceBlock(
        p,
        spec.composed
          ? { base, ours, theirs, resolutionBase: spec.composed.resolutionBase }
          : { base, ours, theirs, merge: spec.merge!, ...spec.heldOut?.commits },
        (spec.composed
          ? `Upstream never merged these two commits as such (it ` +
            `merged ${spec.theirsBranch} into ${ob} in several steps). Each side re-created as one ` +
            `commit on the merge base (${ob} ${o}, ${spec.theirsBranch} ${t}), with the original ` +
            `messages, authors and dates; trees cut to ${p.keep.join(', ')}. The reference resolution ` +
            `(${m}) is ${spec.composed.resolutionBase} (upstream's own) with the rest ` +
            `of ${spec.theirsBranch} merged and resolved by hand: ` +
            `scripts/hard-ports/${port('resolution.patch')}.`
          : spec.completion
            ? `Each side re-created as one commit on the merge base ` +
              `(${ob} ${o}, ${spec.theirsBranch} ${t}; the real merge re-created as ${upstreamMerge}), with the ` +
              `original messages, authors and dates; trees cut to ${p.keep.join(', ')}. The reference ` +
              `resolution (${m}) is upstream's merge completed by hand where it ${spec.completion}: ` +
              `scripts/hard-ports/${port('resolution.patch')}; upstream's merge as committed is a negative.`
            : `Each side re-created as one commit on the merge base ` +
              `(${ob} ${o}, ${spec.theirsBranch} ${t}; the real merge re-created as ${m}), with the ` +
              `original messages, authors and dates; trees cut to ${p.keep.join(', ')}.`) +
          (p.shims && !spec.blind
            ? ` Every re-created tree also holds ${p.shims.dir}/ (stand-ins for test-only dependencies ` +
              `the sandbox lacks, scripts/hard-ports/${p.shims.from}/).`
            : '') +
          (spec.heldOut
            ? ` ${heldOutSource(
                mergePortOwner(spec, 'held-out'),
                heldOut!,
                'the pinned tests archive, never in the bundle',
                // A blind task's sentence follows.
                spec.blind ? spec.heldOut.origin.replace(/[^.]$/, '$&.') : spec.heldOut.origin,
              )}`
            : '') +
          (spec.blind
            ? ` Blind variant of semantic-merge/${spec.blind.of}: ${p.tests}/ removed from every re-created ` +
              `commit (the base, both sides and the reference${p.shims ? `, and with it ${p.shims.dir}/` : ''}), ` +
              `so no commit or object of the bundle holds a test file; the merged tests travel only in the ` +
              `pinned tests archive.`
            : ''),
      ),
      ...(spec.blind ? { blind_of: `semantic-merge/${spec.blind.of}` } : {}),
      measured: Object.fromEntries([
        ...Object.entries(verdicts).map(([k, v]) => [k, v.summary]),
        ...wrongTrees.map((w) => [w.name, w.summary]),
      ]),
      ...(spec.trap ? { trap: spec.trap } : {}),
    },
    negatives: [
      { answer: 'true', why: 'nop: the merge is left unfinished, with conflict markers.' },
      ...wrongTrees.map((w) => ({
        answer: resolvedTo(w.tree),
        why: w.passesVisible
          ? spec.blind
            ? `${w.why}: both sides' merged tests pass, the held-out tests fail (${w.summary}).`
            : `${w.why}: every test in the repository passes, the held-out tests fail (${w.summary}).`
          : `${w.why}: the tests fail (${w.summary}).`,
      })),
      {
        answer: resolveWith('ours'),
        why: `Every conflict resolved to ${ob}'s side: the tests fail (${verdicts.ours!.summary}).`,
      },
      {
        answer: resolveWith('theirs'),
        why: `Every conflict resolved to ${spec.theirsBranch}'s side: the tests fail (${verdicts.theirs!.summary}).`,
      },
      {
        answer: resolveWith('union'),
        why: `Both sides kept in every conflict (a naive union): the tests fail (${verdicts.union!.summary}).`,
      },
      {
        answer: 'git add -A && git commit -q --no-edit',
        why: 'Committing the conflicted files as they are leaves conflict markers.',
      },
    ],
  };
  writeYaml(join(out, 'semantic-merge', `${spec.id}.yaml`), doc);
  rows.push({
    kind: 'semantic-merge',
    id: spec.id,
    project: p,
    commits: spec.composed
      ? `${spec.composed.theirs.slice(0, 12)} into ${spec.composed.ours.slice(0, 12)}, resolved ` +
        `from ${spec.composed.resolutionBase.slice(0, 12)}`
      : `merge ${spec.merge!.slice(0, 12)}`,
  });
  process.stderr.write(
    `  ${spec.id}: ${files.length} conflicted file(s); merge ${verdicts.merge.summary}; ours/theirs/union fail\n`,
  );
}

// ---------------------------------------------------------------------------------------------------
// Backports

/**
 * `commit` re-created with the test harness adapted (scripts/hard-ports/<id>/harness/<name>.patch), same message,
 * identity and dates.
 */
function withHarness(
  scratch: string,
  spec: BackportSpec,
  name: string,
  commit: string,
  meta: CommitMeta,
  parents: string[],
): string {
  if (!spec.harness) return commit;
  const adapted = applied(
    scratch,
    commit,
    readFileSync(resolve('scripts/hard-ports', spec.id, 'harness', `${name}.patch`)),
    meta,
  );
  return recreate(scratch, meta, git(scratch, ['rev-parse', `${adapted}^{tree}`]).trim(), parents);
}

function backport(spec: BackportSpec, p: Project, scratch: string, out: string, rows: Row[]): void {
  const fixMeta = commitMeta(p.mirror, spec.fix);
  const parent = fixMeta.parents[0]!;
  const mainParent = withHarness(
    scratch,
    spec,
    'main',
    trimmed(scratch, p, parent, []),
    commitMeta(p.mirror, parent),
    [],
  );
  const main = withHarness(scratch, spec, 'main', trimmed(scratch, p, spec.fix, [mainParent]), fixMeta, [mainParent]);
  const refs: Record<string, string> = { 'refs/heads/main': main };
  const heldOut = spec.heldOut ? portedHeldOut(spec.id) : undefined;
  const lines: {
    branch: string;
    tag: string;
    tip: string;
    tagCommit: string;
    ported: string;
    asset: string;
    /** The reference port's tests alone, what the attempt can see (not written to the suite). */
    visibleAsset: string;
    patch: string;
    summaries: Record<string, string>;
  }[] = [];
  for (const line of spec.lines) {
    const tagCommit = git(p.mirror, ['rev-parse', `${line.tag}^{commit}`]).trim();
    const tip = withHarness(
      scratch,
      spec,
      line.branch,
      trimmed(scratch, p, tagCommit, []),
      commitMeta(p.mirror, tagCommit),
      [],
    );
    refs[`refs/heads/${line.branch}`] = tip;
    // The port, made by hand against the line's tag, becomes a commit with the fix's message.
    const ported = applied(
      scratch,
      tip,
      readFileSync(resolve('scripts/hard-ports', spec.id, `${line.branch}.patch`)),
      fixMeta,
    );
    const asset = `_assets/tests/${spec.id}-${line.branch}.tar.gz`;
    // What the attempt can see (the line's own tests and the ported regression test) is the reference port's tests
    // directory; the pinned archive adds the held-out files to it.
    const visibleAsset = join(scratch, '.git', `visible-${spec.id}-${line.branch}.tar.gz`);
    testsArchive(scratch, ported, p.tests, visibleAsset);
    if (heldOut)
      testsArchive(scratch, withHeldOut(scratch, `${ported}^{tree}`, p.tests, heldOut), p.tests, join(out, asset));
    else testsArchive(scratch, ported, p.tests, join(out, asset));
    const before = runTests(scratch, tip, p, join(out, asset));
    const after = runTests(scratch, ported, p, join(out, asset));
    if (before.passed)
      throw new Error(`${spec.id}: on ${line.branch} the tests already pass before the port (${before.summary})`);
    if (!after.passed)
      throw new Error(`${spec.id}: on ${line.branch} the tests fail after the port (${after.summary})`);
    const patch = b64(gitBuf(scratch, ['diff', '--binary', '--full-index', tip, ported]));
    lines.push({
      ...line,
      tip,
      tagCommit,
      ported,
      asset,
      visibleAsset,
      patch,
      summaries: { before: before.summary, after: after.summary },
    });
  }
  // Taking main's version of the fixed files wholesale: newer code on an older line.
  // Files the fix deletes are left out: `git checkout main -- <path>` cannot take a file main does not have.
  const fixedFiles = git(scratch, ['diff', '--name-only', '--diff-filter=d', mainParent, main])
    .split('\n')
    .filter(Boolean);
  const wholesale = lines
    .map(
      (l) =>
        `git checkout -q ${sh(l.branch)} && git checkout main ` +
        `-- ${fixedFiles.map(sh).join(' ')} && git commit -q ` +
        `-m ${sh(subjectOf(fixMeta))}`,
    )
    .join(' && ');
  const wholesaleRuns = lines.map((l) => {
    const tree = withFiles(
      scratch,
      l.tip,
      Object.fromEntries(fixedFiles.map((f) => [f, gitBuf(scratch, ['cat-file', 'blob', `${main}:${f}`])])),
    );
    return runTests(
      scratch,
      git(scratch, ['commit-tree', tree, '-p', l.tip], { input: 'wholesale\n' }).trim(),
      p,
      join(out, l.asset),
    );
  });
  if (wholesaleRuns.every((r) => r.passed))
    throw new Error(`${spec.id}: taking main's files wholesale passes every line`);
  const wrong = (spec.wrongPorts ?? []).map((w) => {
    const ports = lines.map((l) => {
      const file = resolve('scripts/hard-ports', spec.id, w.name, `${l.branch}.patch`);
      if (!existsSync(file)) return { line: l, patch: l.patch, summary: l.summaries.after, passed: true };
      const commit = applied(scratch, l.tip, readFileSync(file), fixMeta);
      const run = runTests(scratch, commit, p, join(out, l.asset));
      if (w.passesVisible) {
        const visible = runTests(scratch, commit, p, l.visibleAsset);
        if (!visible.passed)
          throw new Error(`${spec.id}: ${w.name} fails the visible tests on ${l.branch} (${visible.summary})`);
      }
      return {
        line: l,
        patch: b64(gitBuf(scratch, ['diff', '--binary', '--full-index', l.tip, commit])),
        summary: run.summary,
        passed: run.passed,
      };
    });
    const failing = ports.filter((x) => !x.passed);
    if (failing.length === 0) throw new Error(`${spec.id}: the wrong port ${w.name} passes every line`);
    if (w.passesVisible && !spec.heldOut) throw new Error(`${spec.id}: ${w.name} passesVisible without held-out tests`);
    return { ...w, ports, failing };
  });
  bundle(scratch, refs, join(out, '_assets', 'bundles', `${spec.id}.bundle`));

  const portTo = (l: (typeof lines)[number], patch = l.patch) =>
    `git checkout -q ${sh(l.branch)} && printf '%s' ${patch} | base64 -d | git apply --index ` +
    `&& git commit -q -F - ` +
    `<<'GITBENCH_MSG'\n${fixMeta.message.replace(/\n+$/, '')}\nGITBENCH_MSG`;
  const reference = [...lines.map((l) => portTo(l)), 'git checkout -q main'].join('\n');
  const subject = subjectOf(fixMeta);
  const ticket = [
    `A fix landed on main of ${p.repo.split('/')[1]} (${p.repo}): "${subject}" (the tip ` +
      `commit of main, \`git show main\`).`,
    `Users of the older release lines need it too. Backport it ` +
      `to ${lines.map((l) => `\`${l.branch}\``).join(' and ')} (branches of this ` +
      `repository; ${lines.map((l) => `${l.branch} is at the ${l.tag} release`).join(', ')}).`,
    'The code has diverged between the lines, so adapt the change to each line rather than copying newer code onto it;',
    'each line must keep working with what it has (its own Python compatibility code, its own APIs).',
    '',
    'What is checked, on the repository you leave:',
    ...lines.flatMap((l) => [
      `- \`${l.branch}\` is its old tip plus exactly one new commit on top (no merge), whose ` +
        `subject line is the fix's: "${subject}";`,
      `- on \`${l.branch}\`, the line's own tests plus the fix's regression test, ported to ` +
        `that line, pass: \`${runLine(p)}\``,
      `  (the checker runs its own pinned copy of \`${p.tests}/\` for the line, so editing tests changes nothing);`,
    ]),
    ...(spec.harness ? [spec.harness] : []),
    ...(spec.note ? [spec.note] : []),
    ...(spec.heldOut
      ? [
          `- held-out tests: on each line the checker also runs tests that are not in this repository and that you ` +
            `cannot see or run (the pinned copy of \`${p.tests}/\` carries them). ${spec.heldOut.note}`,
        ]
      : []),
    ...(p.deselected ? [p.deselected] : []),
    '- main is left as it is.',
  ].join('\n');
  const doc = {
    id: spec.id,
    description: `Backport of "${subject}" from ${p.repo} main to ${lines.map((l) => l.branch).join(' and ')}`,
    purpose:
      'Port a real fix to older release lines whose code diverged, judged on each line by the ' +
      (spec.heldOut
        ? "fix's regression test, the line's own tests and held-out tests of the symptom the ticket states."
        : "fix's regression test and the line's own tests."),
    ...taskHead(
      'backport',
      p,
      spec.id,
      lines.map((l) => l.asset),
      setupSteps(p),
      ['git branch -v', 'git show main'],
      ticket,
      'makes the backports',
    ),
    expected: reference,
    scoring: {
      type: 'repo_checks',
      checks: [
        { type: 'ref_equals', ref: 'main', commit: main },
        ...lines.flatMap((l) => [
          { type: 'linear_onto', branch: l.branch, onto: l.tip },
          { type: 'commits_preserved', range: `${l.tip}..${l.branch}`, messages: [subject] },
          { type: 'tests_pass', rev: l.branch, ...testRun(p, l.asset) },
        ]),
      ],
      reference_tool_calls: [{ name: 'bash', args: { command: reference } }],
      source: sourceBlock(
        p,
        { fix: spec.fix, ...Object.fromEntries(lines.map((l) => [l.tag, l.tagCommit])), ...spec.heldOut?.commits },
        `main is the fix on its parent (${main}); each line is its release tag as one commit ` +
          `(${lines.map((l) => `${l.branch} ${l.tip}`).join(', ')}); trees cut ` +
          `to ${p.keep.join(', ')}.${
            spec.harness
              ? ` Test harness adapted on every line and on main ` +
                `(scripts/hard-ports/${spec.id}/harness/): ${spec.harness}`
              : ''
          } The reference ports (${lines.map((l) => `${l.branch} ${l.ported}`).join(', ')}) ` +
          `were adapted by hand: scripts/hard-ports/${spec.id}/.${
            spec.heldOut
              ? ` ${heldOutSource(
                  spec.id,
                  heldOut!,
                  "each line's pinned tests archive, never in the bundle or a reference port",
                  spec.heldOut.origin,
                )}`
              : ''
          }`,
      ),
      measured: Object.fromEntries(
        lines.map((l, i) => [
          l.branch,
          {
            ...l.summaries,
            wholesale: wholesaleRuns[i]!.summary,
            ...Object.fromEntries(wrong.map((w) => [w.name, w.ports[i]!.summary])),
          },
        ]),
      ),
    },
    negatives: [
      { answer: 'true', why: 'nop: no line gets the fix; its regression test fails on each.' },
      {
        answer: [portTo(lines[0]!), 'git checkout -q main'].join('\n'),
        why: `Only ${lines[0]!.branch} is ported; ${lines
          .slice(1)
          .map((l) => l.branch)
          .join(', ')} still fails the regression test.`,
      },
      {
        answer: wholesale,
        why:
          `Copying main's version of the fixed files onto the lines brings newer code that the ` +
          `older lines cannot run (${lines.map((l, i) => `${l.branch}: ${wholesaleRuns[i]!.summary}`).join('; ')}).`,
      },
      {
        answer: lines
          .map((l) => `git checkout -q ${sh(l.branch)} && git commit -q --allow-empty -m ${sh(subject)}`)
          .join(' && '),
        why: 'A commit with the right subject but no change: the regression tests fail.',
      },
      ...wrong.map((w) => ({
        answer: [...w.ports.map((x) => portTo(x.line, x.patch)), 'git checkout -q main'].join('\n'),
        why: `${w.why} (${w.failing.map((x) => `${x.line.branch}: ${x.summary}`).join('; ')}).`,
      })),
    ],
  };
  writeYaml(join(out, 'backport', `${spec.id}.yaml`), doc);
  rows.push({
    kind: 'backport',
    id: spec.id,
    project: p,
    commits: `fix ${spec.fix.slice(0, 12)} onto ${spec.lines.map((l) => l.tag).join(', ')}`,
  });
  process.stderr.write(
    `  ${spec.id}: ${lines.map((l) => `${l.branch} ${l.summaries.before} -> ${l.summaries.after}`).join('; ')}\n`,
  );
}

// ---------------------------------------------------------------------------------------------------
// Long rebases

/**
 * A commit made from `parent` by applying `patch` (a file, or a diff's bytes) with `meta`'s message, identity and
 * dates.
 */
function applied(scratch: string, parent: string, patch: Buffer, meta: CommitMeta): string {
  const wt = mkdtempSync(join(tmpdir(), 'hard-apply-'));
  try {
    git(scratch, ['worktree', 'add', '-q', '--detach', wt, parent]);
    if (patch.length > 0) git(wt, ['apply', '--index', '-'], { input: patch });
    return recreate(scratch, meta, git(wt, ['write-tree']).trim(), [parent]);
  } finally {
    git(scratch, ['worktree', 'remove', '--force', wt], { allowFail: true });
    rmSync(wt, { recursive: true, force: true });
  }
}

/** A rebase ticket's first lines: what the branch holds, the policy, how main moved, what to expect. */
function rebaseTicketOpening(spec: RebaseSpec, p: Project): string[] {
  return [
    `Branch \`${spec.branch}\` of ${p.repo.split('/')[1]} (${p.repo}) ` +
      `holds ${spec.about ?? `${spec.commits.length} real fixes made on the maintenance line`}. ` +
      `Our policy is a linear history:`,
    `instead of merging it, rebase \`${spec.branch}\` onto \`main\`. Main has moved a lot ` +
      `since the branch started: ${spec.mainMoved}`,
    ...(spec.mainStaged ? [spec.mainStaged] : []),
    'Expect conflicts in more than one commit; resolve each so that the fix still does what ' +
      "it did, in main's current code.",
  ];
}

/** The upstream commits a rebase uses, for its source block: the branch point, main, and the branch's, numbered. */
function rebaseCommits(spec: RebaseSpec): Record<string, string> {
  return {
    base: spec.base,
    onto: spec.onto,
    ...Object.fromEntries(spec.commits.map((c, i) => [`commit${String(i + 1).padStart(2, '0')}`, c])),
  };
}

/** What every rebase checks of its shape: main left where it was, the branch linear on it, each commit kept once. */
function rebaseShapeChecks(spec: RebaseSpec, onto: string, metas: readonly CommitMeta[]) {
  return [
    { type: 'ref_equals', ref: 'main', commit: onto },
    { type: 'linear_onto', branch: spec.branch, onto: 'main' },
    {
      type: 'commits_preserved',
      range: `main..${spec.branch}`,
      messages: metas.map((m) => m.message.replace(/\s+$/, '')),
    },
  ];
}

/**
 * Which commits conflict when replayed (each onto the hand-made replay of the ones before it), with the paths git
 * leaves unmerged.
 */
function conflictedCommits(
  scratch: string,
  onto: string,
  feature: readonly string[],
  rebased: readonly string[],
): { at: number; paths: string[] }[] {
  const conflicted: { at: number; paths: string[] }[] = [];
  const probe = mkdtempSync(join(tmpdir(), 'hard-replay-'));
  try {
    git(scratch, ['worktree', 'add', '-q', '--detach', probe, onto]);
    for (const [i, c] of feature.entries()) {
      git(probe, ['reset', '-q', '--hard', i === 0 ? onto : rebased[i - 1]!]);
      const picked = git(probe, ['cherry-pick', '--no-commit', c], { allowFail: true });
      const unmerged = git(probe, ['diff', '--name-only', '--diff-filter=U']).split('\n').filter(Boolean);
      if (picked.startsWith('\u0000EXIT') && unmerged.length > 0) conflicted.push({ at: i, paths: unmerged });
      git(probe, ['cherry-pick', '--abort'], { allowFail: true });
      git(probe, ['reset', '-q', '--hard'], { allowFail: true });
    }
  } finally {
    git(scratch, ['worktree', 'remove', '--force', probe], { allowFail: true });
    rmSync(probe, { recursive: true, force: true });
  }
  return conflicted;
}

function longRebase(spec: RebaseSpec, p: Project, scratch: string, out: string, rows: Row[]): void {
  // A blind variant reads the original's ports.
  const ports = spec.blind?.of ?? spec.id;
  const b = trimmed(scratch, p, spec.base, []);
  const ontoMeta = commitMeta(p.mirror, spec.onto);
  const upstreamOnto = trimmed(scratch, p, spec.onto, [b]);
  // A staged change to main stays part of main's one commit (its message, identity and dates upstream's).
  const onto = spec.mainStaged
    ? recreate(
        scratch,
        ontoMeta,
        git(scratch, [
          'rev-parse',
          `${applied(
            scratch,
            upstreamOnto,
            readFileSync(resolve('scripts/hard-ports', ports, 'main.patch')),
            ontoMeta,
          )}^{tree}`,
        ]).trim(),
        [b],
      )
    : upstreamOnto;
  const metas = spec.commits.map((c) => commitMeta(p.mirror, c));
  // The branch as it was: each commit's own change (against its first parent), over the kept paths.
  const feature: string[] = [];
  for (const [i, c] of spec.commits.entries()) {
    const change = spec.linearized?.includes(i + 1)
      ? readFileSync(resolve('scripts/hard-ports', ports, 'branch', `${String(i + 1).padStart(2, '0')}.patch`))
      : gitBuf(p.mirror, ['diff', '--binary', `${c}^1`, c, '--', ...p.keep]);
    feature.push(applied(scratch, feature[i - 1] ?? b, change, metas[i]!));
  }
  const rebased: string[] = [];
  if (spec.fromMerge) {
    const merge = trimmed(scratch, p, spec.fromMerge, []);
    const touched = feature.map((f, i) =>
      git(scratch, ['diff', '--name-only', i === 0 ? b : feature[i - 1]!, f])
        .split('\n')
        .filter(Boolean),
    );
    const twice = touched.flat().filter((f, i, all) => all.indexOf(f) !== i);
    if (twice.length)
      throw new Error(
        `${spec.id}: ${[...new Set(twice)].join(', ')} changed by more than one commit: the merge ` +
          `cannot say how each replays`,
      );
    for (const [i, files] of touched.entries()) {
      const parent = rebased[i - 1] ?? onto;
      const tree = withFiles(
        scratch,
        parent,
        Object.fromEntries(files.map((f) => [f, gitBuf(scratch, ['cat-file', 'blob', `${merge}:${f}`])])),
      );
      rebased.push(recreate(scratch, metas[i]!, tree, [parent]));
    }
  } else {
    // The rebase made by hand (scripts/hard-ports/<id>/NN.patch: each replayed commit against the one before).
    for (const [i] of spec.commits.entries()) {
      const patch = readFileSync(resolve('scripts/hard-ports', ports, `${String(i + 1).padStart(2, '0')}.patch`));
      rebased.push(applied(scratch, rebased[i - 1] ?? onto, patch, metas[i]!));
    }
  }
  const tip = rebased.at(-1)!;
  if (spec.blind) return blindLongRebase(spec, p, scratch, out, rows, { b, onto, feature, rebased });
  const conflicted = conflictedCommits(scratch, onto, feature, rebased).map((c) => subjectOf(metas[c.at]!));
  const mainTests = `_assets/tests/${spec.id}-main.tar.gz`;
  const tipTests = `_assets/tests/${spec.id}-tip.tar.gz`;
  testsArchive(scratch, onto, p.tests, join(out, mainTests));
  testsArchive(scratch, tip, p.tests, join(out, tipTests));
  const exempt = new Set((spec.eachExempt?.commits ?? []).map((n) => n - 1));
  const eachProject: Project = spec.eachCommand ? { ...p, command: spec.eachCommand } : p;
  const heldTests = `_assets/tests/${spec.id}-held.tar.gz`;
  const heldExempt = new Set((spec.heldOut?.exempt ?? []).map((n) => n - 1));
  const heldProject: Project | null = spec.heldOut ? { ...p, command: spec.heldOut.command } : null;
  if (heldProject)
    testsArchive(
      scratch,
      withHeldOut(scratch, `${onto}^{tree}`, p.tests, portedHeldOut(spec.id)),
      p.tests,
      join(out, heldTests),
    );
  /** The 1-based numbers of `commits` at which the held-out tests fail. */
  const heldOutFailing = (commits: string[]) =>
    heldProject
      ? commits
          .map((c, i) =>
            heldExempt.has(i) || runTests(scratch, c, heldProject, join(out, heldTests)).passed ? 0 : i + 1,
          )
          .filter((n) => n > 0)
      : [];
  // Commits git replays without a conflict whose result still fails main's tests (a semantic conflict git does not
  // mark), found by replaying as a hurried rebase would: git's clean picks kept as they are, and only the commits
  // that stop on a conflict resolved as the reference resolves them.
  const brokenClean: string[] = [];
  const patchesByIndex = rebased.map((r, i) =>
    gitBuf(scratch, ['diff', '--binary', '--full-index', rebased[i - 1] ?? onto, r]),
  );
  const ident = {
    GIT_COMMITTER_NAME: 'gitbench',
    GIT_COMMITTER_EMAIL: 'bench@example.com',
    GIT_COMMITTER_DATE: '946684800 +0000',
  };
  const probe2 = mkdtempSync(join(tmpdir(), 'hard-replay-'));
  try {
    git(scratch, ['worktree', 'add', '-q', '--detach', probe2, onto]);
    for (const [i, c] of feature.entries()) {
      const picked = git(probe2, ['cherry-pick', '--no-commit', c], { allowFail: true });
      const clean = !picked.startsWith('\u0000EXIT');
      if (!clean) {
        git(probe2, ['cherry-pick', '--abort'], { allowFail: true });
        git(probe2, ['reset', '-q', '--hard'], { allowFail: true });
        if (patchesByIndex[i]!.length > 0)
          git(probe2, ['apply', '--index', '-'], { input: patchesByIndex[i]!, allowFail: true });
      }
      git(probe2, ['commit', '-q', '--allow-empty', '--no-verify', '-C', c], { env: ident, allowFail: true });
      git(probe2, ['cherry-pick', '--quit'], { allowFail: true });
      if (process.env.HARD_MINE_DEBUG)
        process.stderr.write(`naive ${i + 1}: ${clean ? 'clean' : 'conflict'} ${picked.slice(0, 200)}\n`);
      if (
        clean &&
        !exempt.has(i) &&
        !runTests(scratch, git(probe2, ['rev-parse', 'HEAD^{tree}']).trim(), eachProject, join(out, mainTests)).passed
      )
        brokenClean.push(subjectOf(metas[i]!));
    }
  } finally {
    git(scratch, ['worktree', 'remove', '--force', probe2], { allowFail: true });
    rmSync(probe2, { recursive: true, force: true });
  }
  if (conflicted.length < 2)
    throw new Error(`${spec.id}: replaying the branch conflicts in ${conflicted.length} commit(s); at least 2 wanted`);
  const atTip = runTests(scratch, tip, p, join(out, tipTests));
  if (!atTip.passed) throw new Error(`${spec.id}: the tests fail at the rebased tip: ${atTip.summary}`);
  const each = rebased.map((r, i) =>
    exempt.has(i)
      ? { passed: true, exit: 0, summary: 'exempt' }
      : runTests(scratch, r, eachProject, join(out, mainTests)),
  );
  const failing = each.map((r, i) => (r.passed ? null : `${subjectOf(metas[i]!)}: ${r.summary}`)).filter(Boolean);
  if (failing.length) throw new Error(`${spec.id}: main's tests fail at replayed commits: ${failing.join('; ')}`);
  const heldEach = heldProject
    ? rebased.map((r, i) =>
        heldExempt.has(i)
          ? { passed: true, exit: 0, summary: 'exempt' }
          : runTests(scratch, r, heldProject, join(out, heldTests)),
      )
    : [];
  const heldFailing = heldEach
    .map((r, i) => (r.passed ? null : `${subjectOf(metas[i]!)}: ${r.summary}`))
    .filter(Boolean);
  if (heldFailing.length)
    throw new Error(`${spec.id}: the held-out tests fail at replayed commits: ${heldFailing.join('; ')}`);
  const wrongReplays = (spec.wrongReplays ?? []).map((w) => {
    const commits: string[] = [];
    for (const [i] of spec.commits.entries()) {
      const patch = readFileSync(
        resolve('scripts/hard-ports', ports, w.name, `${String(i + 1).padStart(2, '0')}.patch`),
      );
      commits.push(applied(scratch, commits[i - 1] ?? onto, patch, metas[i]!));
    }
    const tipRun = runTests(scratch, commits.at(-1)!, p, join(out, tipTests));
    const eachFailing = commits
      .map((c, i) =>
        exempt.has(i) ? null : runTests(scratch, c, eachProject, join(out, mainTests)).passed ? null : i + 1,
      )
      .filter((n): n is number => n !== null);
    const heldFailingAt = heldOutFailing(commits);
    if (w.passesVisible && (eachFailing.length > 0 || !tipRun.passed || heldFailingAt.length === 0))
      throw new Error(`${spec.id}: ${w.name} is marked passesVisible but fails a visible test or no held-out one`);
    const summary = replayFailures({
      each: eachFailing,
      heldOut: heldFailingAt,
      tip: tipRun.passed ? null : tipRun.summary,
    });
    if (summary === '') throw new Error(`${spec.id}: the wrong replay ${w.name} passes every test`);
    return {
      ...w,
      patches: commits.map((c, i) =>
        b64(gitBuf(scratch, ['diff', '--binary', '--full-index', commits[i - 1] ?? onto, c])),
      ),
      summary,
    };
  });
  bundle(
    scratch,
    { 'refs/heads/main': onto, [`refs/heads/${spec.branch}`]: feature.at(-1)! },
    join(out, '_assets', 'bundles', `${spec.id}.bundle`),
  );

  const patches = patchesByIndex.map((d) => b64(d));
  const replay = (keep: (i: number) => boolean) =>
    [
      `git checkout -q -B ${sh(spec.branch)} main`,
      ...feature
        .map((f, i) =>
          !keep(i)
            ? null
            : `${patches[i] ? `printf '%s' ${patches[i]} | base64 -d | git apply --index && ` : ''}` +
              `git commit -q --allow-empty -C ${f}`,
        )
        .filter((l): l is string => l !== null),
    ].join('\n');
  const reference = replay(() => true);
  const emptyOnes = rebased
    .map((r, i) =>
      git(scratch, ['rev-parse', `${r}^{tree}`]).trim() ===
      git(scratch, ['rev-parse', `${rebased[i - 1] ?? onto}^{tree}`]).trim()
        ? i
        : -1,
    )
    .filter((i) => i >= 0);
  const subjects = metas.map(subjectOf);
  /** A check that `project`'s command passes at every replayed commit but the `skipped` ones (0-based). */
  const eachCheck = (project: Project, asset: string, skipped: Set<number>) => ({
    type: 'tests_pass_each',
    range: `main..${spec.branch}`,
    ...testRun(project, asset),
    ...(skipped.size ? { except_subjects: [...skipped].map((i) => subjectOf(metas[i]!)) } : {}),
    min_commits: spec.commits.length,
    max_commits: spec.commits.length + 2,
  });
  const ticket = [
    ...rebaseTicketOpening(spec, p),
    '',
    'The branch, oldest first:',
    ...subjects.map((s2, i) => `${i + 1}. ${s2}`),
    '',
    'What is checked, on the repository you leave:',
    `- \`${spec.branch}\` is a straight line of commits on top of \`main\` (no merge commit), ` +
      `and \`main\` itself is left where it is;`,
    `- each of the ${spec.commits.length} commits above appears exactly once on it, in this ` +
      `order, with its original message, and nothing else is added.`,
    `  ${
      spec.emptyNote ??
      'Keep a commit even when main already has its change (it is then an empty ' +
        'commit: git drops such commits by default, so keep them on purpose);'
    }`,
    `- the project's tests pass at the tip of \`${spec.branch}\`: the tests as they stand ` +
      `there (main's and the branch's), \`${runLine(p)}\`;`,
    ...(p.deselected ? [`  ${p.deselected.replace('the merge does not touch', 'the rebase does not touch')}`] : []),
    ...(spec.tipNote ? [`  ${spec.tipNote}`] : []),
    spec.eachNote ??
      `- at every commit of the rebased branch, main's own test suite passes (the same command ` +
        `with main's \`${p.tests}/\`).`,
    ...(spec.eachExempt ? [`  ${spec.eachExempt.why}`] : []),
    ...(spec.heldOut
      ? [
          `- every commit must work with main as it is now, including on code paths the branch's own tests do not ` +
            `reach: ${spec.heldOut.note}`,
        ]
      : []),
    `The checker runs its own pinned copies of \`${p.tests}/\`, so editing tests changes nothing.`,
  ].join('\n');
  const doc = {
    id: spec.id,
    description:
      `Long rebase of ${spec.commits.length} real ${p.repo} commits onto a main that moved ` +
      `(${conflicted.length} of them conflict)`,
    purpose:
      'Replay a real branch of several commits onto a main with renamed APIs and modernised ' +
      'code, resolving conflicts in several commits so that every commit still works.',
    ...taskHead(
      'long-rebase',
      p,
      spec.id,
      [mainTests, tipTests, ...(heldProject ? [heldTests] : [])],
      setupSteps(p),
      ['git log --oneline --graph --all', `git log -p --reverse main..${sh(spec.branch)}`],
      ticket,
      'does the rebase',
    ),
    expected: reference,
    scoring: {
      type: 'repo_checks',
      checks: [
        ...rebaseShapeChecks(spec, onto, metas),
        { type: 'tests_pass', rev: spec.branch, ...testRun(p, tipTests) },
        eachCheck(eachProject, mainTests, exempt),
        ...(heldProject ? [eachCheck(heldProject, heldTests, heldExempt)] : []),
      ],
      ...(spec.trap ? { trap: spec.trap } : {}),
      reference_tool_calls: [{ name: 'bash', args: { command: reference } }],
      source: sourceBlock(
        p,
        rebaseCommits(spec),
        `The branch's commits re-created from their first-parent changes on the branch point ` +
          `(${feature.join(', ')}), main as one commit on it (${onto}); trees cut ` +
          `to ${p.keep.join(', ')}.${
            spec.linearized
              ? ` Commits ${spec.linearized.join(', ')} were made after the branch merged main in; ` +
                `re-created without those merges, their changes were applied by hand ` +
                `(scripts/hard-ports/${spec.id}/branch/).`
              : ''
          }${spec.mainStaged ? ` Staged on main (scripts/hard-ports/${spec.id}/main.patch): ${spec.mainStaged}` : ''}${
            spec.heldOut
              ? ` Held-out tests (${spec.heldOut.origin}; scripts/hard-ports/${spec.id}/held-out/), laid into main's ` +
                `tests/ as ${heldTests}, which the attempt never sees.`
              : ''
          } ${
            spec.fromMerge
              ? `The reference rebase takes each replayed commit's files from the real merge ${spec.fromMerge}.`
              : `The reference rebase was resolved by hand: scripts/hard-ports/${spec.id}/.`
          }`,
      ),
      measured: {
        conflicted,
        ...(brokenClean.length ? { brokenClean } : {}),
        tip: atTip.summary,
        each: each.map((r) => r.summary),
        ...(heldProject ? { heldOut: heldEach.map((r) => r.summary) } : {}),
        ...Object.fromEntries(wrongReplays.map((w) => [w.name, w.summary])),
      },
    },
    negatives: [
      { answer: 'true', why: `nop: ${spec.branch} is not on main.` },
      {
        answer: `git checkout -q ${sh(spec.branch)} && git rebase -q -X theirs main`,
        why:
          `Letting the branch win every conflict (-X theirs) brings back code main ` +
          `renamed${emptyOnes.length ? '; and git drops the commits main already has' : ''}.`,
      },
      {
        answer: `git checkout -q ${sh(spec.branch)} && git merge -q --no-edit -X ours main`,
        why: 'A merge instead of a rebase: not linear on main.',
      },
      ...(emptyOnes.length
        ? [
            {
              answer: replay((i) => !emptyOnes.includes(i)),
              why:
                `A correct rebase that lets git drop the ${emptyOnes.length} commit(s) main already has: ` +
                `not every commit is preserved.`,
            },
          ]
        : []),
      ...wrongReplays.map((w) => ({
        answer: [
          `git checkout -q -B ${sh(spec.branch)} main`,
          ...feature.map(
            (f, i) =>
              `${w.patches[i] ? `printf '%s' ${w.patches[i]} | base64 -d | git apply --index && ` : ''}` +
              `git commit -q --allow-empty -C ${f}`,
          ),
        ].join('\n'),
        why: `${w.why} (${w.summary}).`,
      })),
      ...(brokenClean.length
        ? [
            {
              // The textual conflicts resolved as the reference does, every other commit as git replays it.
              answer: [
                `git checkout -q -B ${sh(spec.branch)} main`,
                ...feature.map(
                  (f, i) =>
                    `git cherry-pick --allow-empty ${f} >/dev/null 2>&1 || { git cherry-pick --abort; ` +
                    `${patches[i] ? `printf '%s' ${patches[i]} | base64 -d | git apply --index; ` : ''}` +
                    `git commit -q --allow-empty -C ${f}; }`,
                ),
              ].join('\n'),
              why:
                `Trusting git where it reports no conflict: ${brokenClean.join('; ')} replay cleanly but ` +
                `break main's tests (main removed or changed what they use).`,
            },
          ]
        : []),
    ],
  };
  mkdirSync(join(out, 'long-rebase'), { recursive: true });
  writeYaml(join(out, 'long-rebase', `${spec.id}.yaml`), doc);
  rows.push({
    kind: 'long-rebase',
    id: spec.id,
    project: p,
    commits: `${spec.commits.length} commits from ${spec.base.slice(0, 12)} onto ${spec.onto.slice(0, 12)}`,
  });
  process.stderr.write(
    `  ${spec.id}: conflicts in ${conflicted.join(' | ')}; tip ${atTip.summary}; main's tests ` +
      `pass at all ${each.length}\n`,
  );
}

/**
 * A blind long rebase (RebaseSpec.blind): the original's branch, main and reference rebase re-created without the
 * tests directory in any commit. The checker runs, at each rebased commit, the tests the full reference has there
 * (one archive per distinct tests directory), so every commit must be right without the attempt running a test.
 */
function blindLongRebase(
  spec: RebaseSpec,
  p: Project,
  scratch: string,
  out: string,
  rows: Row[],
  full: { b: string; onto: string; feature: string[]; rebased: string[] },
): void {
  const of = spec.blind!.of;
  const n = spec.commits.length;
  const tree = (c: string) => git(scratch, ['rev-parse', `${c}^{tree}`]).trim();
  const hidden = [p.tests, ...(spec.blind!.also ?? [])];
  const [b, onto] = blindChain(scratch, [full.b, full.onto], hidden, '') as [string, string];
  const feature = blindChain(scratch, full.feature, hidden, b);
  const rebased = blindChain(scratch, full.rebased, hidden, onto);
  const metas = feature.map((c) => commitMeta(scratch, c));
  const subjects = metas.map(subjectOf);
  // The commits that changed only the tests: empty here, kept (the ticket says so, commits_preserved checks it).
  const testsOnly = feature
    .map((f, i) =>
      tree(f) === tree(feature[i - 1] ?? b) && tree(full.feature[i]!) !== tree(full.feature[i - 1] ?? full.b) ? i : -1,
    )
    .filter((i) => i >= 0);
  const emptyOnes = rebased.map((r, i) => (tree(r) === tree(rebased[i - 1] ?? onto) ? i : -1)).filter((i) => i >= 0);
  const groups = testsGroups(scratch, full.rebased, p.tests);
  const assetAt: string[] = [];
  for (const g of groups) {
    const asset = `_assets/tests/${spec.id}-${String(g.at[0]! + 1).padStart(2, '0')}.tar.gz`;
    testsArchive(scratch, full.rebased[g.at[0]!]!, p.tests, join(out, asset));
    for (const i of g.at) assetAt[i] = asset;
  }
  /** The 1-based numbers of the commits of a replay at which the checker's tests fail. */
  const failingAt = (commits: readonly string[]) =>
    commits.map((c, i) => (runTests(scratch, c, p, join(out, assetAt[i]!)).passed ? 0 : i + 1)).filter((k) => k > 0);
  const each = rebased.map((r, i) => runTests(scratch, r, p, join(out, assetAt[i]!)));
  const failing = each.map((r, i) => (r.passed ? null : `${i + 1} ${subjects[i]}: ${r.summary}`)).filter(Boolean);
  if (failing.length) throw new Error(`${spec.id}: the pinned tests fail at reference commits: ${failing.join('; ')}`);
  const conflicted = conflictedCommits(scratch, onto, feature, rebased);
  if (conflicted.length < 2)
    throw new Error(`${spec.id}: replaying the branch conflicts in ${conflicted.length} commit(s); at least 2 wanted`);

  const fromTrees = (trees: readonly string[]) => commitTrees(scratch, onto, trees, feature);
  const replayScript = (trees: readonly string[], keep: (i: number) => boolean = () => true) =>
    [
      `git checkout -q -B ${sh(spec.branch)} main`,
      ...trees.flatMap((t, i) => {
        if (!keep(i)) return [];
        const d = b64(gitBuf(scratch, ['diff', '--binary', '--full-index', trees[i - 1] ?? tree(onto), t]));
        return [
          `${d ? `printf '%s' ${d} | base64 -d | git apply --index && ` : ''}` +
            `git commit -q --allow-empty -C ${feature[i]}`,
        ];
      }),
    ].join('\n');
  const referenceTrees = rebased.map(tree);
  const reference = replayScript(referenceTrees);
  const at = (ks: readonly number[]) => `commit${ks.length > 1 ? 's' : ''} ${ks.join(', ')}`;
  // The original's wrong replays, their trees blind too.
  const wrong = (spec.wrongReplays ?? []).map((w) => {
    const commits: string[] = [];
    for (const [i] of spec.commits.entries()) {
      const patch = readFileSync(resolve('scripts/hard-ports', of, w.name, `${String(i + 1).padStart(2, '0')}.patch`));
      commits.push(applied(scratch, commits[i - 1] ?? full.onto, patch, metas[i]!));
    }
    const trees = commits.map((c) => treeWithoutAll(scratch, `${c}^{tree}`, hidden));
    const fails = failingAt(fromTrees(trees));
    if (!fails.length) throw new Error(`${spec.id}: the wrong replay ${w.name} passes the pinned tests everywhere`);
    return {
      answer: replayScript(trees),
      why: `${w.why} (the pinned tests fail at ${at(fails)}).`,
      name: w.name,
      fails,
    };
  });
  // "Ours" at a conflicted commit: the first conflict whose files, kept as main had them, break that very commit.
  let ours: { k: number; paths: string[]; carried: number[]; fixed: number[] } | null = null;
  for (const c of conflicted) {
    const before = c.at === 0 ? onto : rebased[c.at - 1]!;
    const carried = failingAt(fromTrees(oursTrees(scratch, rebased, before, c.at, c.paths, false)));
    if (!carried.includes(c.at + 1) || c.at === n - 1) continue;
    const fixed = failingAt(fromTrees(oursTrees(scratch, rebased, before, c.at, c.paths, true)));
    if (fixed.length && !fixed.includes(n)) {
      ours = { k: c.at, paths: c.paths, carried, fixed };
      break;
    }
  }
  if (!ours) throw new Error(`${spec.id}: no conflicted commit whose "ours" resolution the pinned tests catch`);
  const oursBefore = ours.k === 0 ? onto : rebased[ours.k - 1]!;
  blindBundle(
    scratch,
    { 'refs/heads/main': onto, [`refs/heads/${spec.branch}`]: feature.at(-1)! },
    hidden,
    join(out, '_assets', 'bundles', `${spec.id}.bundle`),
  );

  const cmd = runLine(p);
  const ticket = [
    ...rebaseTicketOpening(spec, p),
    '',
    `The project's test suite is not in this checkout: no commit of this repository, on \`main\` or on ` +
      `\`${spec.branch}\`, holds \`${p.tests}/\`${
        spec.blind!.also
          ? ` (nor ${spec.blind!.also.map((d) => `\`${d}/\``).join(', ')}, where the branch's older layout kept them)`
          : ''
      } (as if it were kept where only CI runs it), so you cannot run it. ` +
      `Upstream's branch changed tests too; ${
        testsOnly.length
          ? `commit${testsOnly.length > 1 ? 's' : ''} ${testsOnly.map((i) => i + 1).join(', ')} below changed ` +
            `only tests, so ${testsOnly.length > 1 ? 'they are empty commits' : 'it is an empty commit'} here`
          : 'here every commit keeps only its change to the code'
      }.`,
    '',
    'The branch, oldest first:',
    ...subjects.map((s2, i) => `${i + 1}. ${s2}${testsOnly.includes(i) ? ' (empty here: it changed only tests)' : ''}`),
    '',
    'What is checked, on the repository you leave:',
    `- \`${spec.branch}\` is a straight line of commits on top of \`main\` (no merge commit), ` +
      `and \`main\` itself is left where it is;`,
    `- each of the ${n} commits above appears exactly once on it, in this order, with its original message, and ` +
      `nothing else is added. Keep every commit even when it is empty (the ones that changed only tests, and any ` +
      `whose change main already has): git drops empty commits by default, so keep them on purpose, with their ` +
      `messages;`,
    `- at every one of the ${n} rebased commits, the checker lays its own copy of \`${p.tests}/\` over that ` +
      `commit's tree and runs \`${cmd}\`: the project's tests as a correct rebase has them at that commit (main's ` +
      `tests and the branch's tests up to that commit, adapted to main). At the tip that is the whole suite. So ` +
      `each commit must hold its own change, whole and working with main's code, and nothing of a later commit's;`,
    // Only the deselection itself: the rest of the project's note is advice on running the suite, which is not here.
    ...(p.deselected
      ? [
          `  ${
            p.deselected.replace('the merge does not touch', 'the rebase does not touch').split(/(?<=\.) (?=[A-Z])/)[0]
          }`,
        ]
      : []),
    ...(spec.tipNote ? [`  ${spec.tipNote}`] : []),
    `Read what each commit changed (\`git show\` of the branch's commits) and main's code it now lands on. You may ` +
      `write and run scratch tests or scripts of your own, but do not commit them: whatever a commit holds under ` +
      `\`${p.tests}/\` is replaced by the checker's copy before its tests run, so it can neither help nor hurt.`,
  ].join('\n');
  const check = (i: number) => ({
    type: 'tests_pass',
    rev: i === n - 1 ? spec.branch : `${spec.branch}~${n - 1 - i}`,
    ...testRun(p, assetAt[i]!),
  });
  const doc = {
    id: spec.id,
    description:
      `Blind long rebase of ${n} real ${p.repo} commits onto a main that moved (long-rebase/${of}'s branch, ` +
      `no tests in the checkout; ${conflicted.length} of them conflict)`,
    purpose:
      "Replay a real branch of several commits onto a moved main without the project's tests at hand, so that " +
      "every commit passes the checker's copy of the tests as the rebase should have them there.",
    ...taskHead(
      'long-rebase',
      p,
      spec.id,
      [...new Set(assetAt)],
      setupSteps(p),
      ['git log --oneline --graph --all', `git log -p --reverse main..${sh(spec.branch)}`],
      ticket,
      'does the rebase',
      BLIND_TIME_LIMIT_NOTE,
    ),
    expected: reference,
    scoring: {
      type: 'repo_checks',
      checks: [...rebaseShapeChecks(spec, onto, metas), ...rebased.map((_, i) => check(i))],
      ...(spec.trap ? { trap: spec.trap } : {}),
      reference_tool_calls: [{ name: 'bash', args: { command: reference } }],
      source: sourceBlock(
        p,
        rebaseCommits(spec),
        `Blind variant of long-rebase/${of}: its branch (${feature.join(', ')}) and main (${onto}) re-created ` +
          `without ${p.tests}/ in any commit, trees otherwise cut to ${p.keep.join(', ')}; the reference rebase is ` +
          `${of}'s (scripts/hard-ports/${of}/) less ${p.tests}/. The pinned tests at each commit are ${p.tests}/ as ` +
          `${of}'s reference rebase has it there (${groups.length} distinct archive(s)).`,
      ),
      blind_of: `long-rebase/${of}`,
      measured: {
        conflicted: conflicted.map((c) => `${c.at + 1} ${subjects[c.at]}: ${c.paths.join(', ')}`),
        ...(testsOnly.length ? { testsOnly: testsOnly.map((i) => i + 1) } : {}),
        each: each.map((r) => r.summary),
        [`ours-${ours.k + 1}`]: `fails at ${at(ours.carried)}`,
        [`ours-${ours.k + 1}-fixed-at-tip`]: `fails at ${at(ours.fixed)}`,
        ...Object.fromEntries(wrong.map((w) => [w.name, `fails at ${at(w.fails)}`])),
      },
    },
    negatives: [
      { answer: 'true', why: `nop: ${spec.branch} is not on main.` },
      {
        answer: `git checkout -q ${sh(spec.branch)} && git rebase -q -X theirs main`,
        why:
          'Letting the branch win every conflict (-X theirs) brings back code main renamed, and git drops the ' +
          'empty commits.',
      },
      {
        answer: `git checkout -q ${sh(spec.branch)} && git merge -q --no-edit -X ours main`,
        why: 'A merge instead of a rebase: not linear on main.',
      },
      ...(emptyOnes.length
        ? [
            {
              answer: replayScript(referenceTrees, (i) => !emptyOnes.includes(i)),
              why:
                `The reference rebase letting git drop the ${emptyOnes.length} empty commit(s) ` +
                `(${emptyOnes.map((i) => i + 1).join(', ')}): not every commit is preserved.`,
            },
          ]
        : []),
      {
        answer: replayScript(oursTrees(scratch, rebased, oursBefore, ours.k, ours.paths, false)),
        why:
          `Commit ${ours.k + 1}'s conflict in ${ours.paths.join(', ')} resolved by taking main's side ("ours"), ` +
          `the branch's change to it given up (the pinned tests fail at ${at(ours.carried)}).`,
      },
      {
        answer: replayScript(oursTrees(scratch, rebased, oursBefore, ours.k, ours.paths, true)),
        why:
          `Commit ${ours.k + 1}'s conflict resolved by taking main's side and put right only in the last commit: ` +
          `the tip is the reference's, the commits in between are broken (the pinned tests fail at ${at(ours.fixed)}).`,
      },
      ...wrong.map((w) => ({ answer: w.answer, why: w.why })),
    ],
  };
  mkdirSync(join(out, 'long-rebase'), { recursive: true });
  writeYaml(join(out, 'long-rebase', `${spec.id}.yaml`), doc);
  rows.push({
    kind: 'long-rebase',
    id: spec.id,
    project: p,
    commits: `blind ${of}: ${n} commits from ${spec.base.slice(0, 12)} onto ${spec.onto.slice(0, 12)}`,
  });
  process.stderr.write(
    `  ${spec.id}: conflicts at ${conflicted.map((c) => c.at + 1).join(', ')}; ${groups.length} test archives; ` +
      `ours-${ours.k + 1} fails at ${ours.carried.join(',')}, fixed-at-tip at ${ours.fixed.join(',')}\n`,
  );
}

function writeYaml(path: string, doc: Record<string, unknown>): void {
  writeFileSync(path, stringify(doc, { lineWidth: 0, blockQuote: 'literal' }));
}

/** The interpreter the miner judges tests with, before hours of mining find it missing. */
function requireDebianPytest(): void {
  const probe = spawnSync('/usr/bin/python3', ['-I', '-c', 'import pytest'], { encoding: 'utf8' });
  if (probe.status !== 0) {
    process.stderr.write(
      `hard-mine: /usr/bin/python3 cannot import pytest ` +
        `(${(probe.stderr || String(probe.error ?? '')).trim().split('\n').at(-1)}); install ` +
        `Debian's python3-pytest (apt-get install python3-pytest, or bash scripts/setup.sh)\n`,
    );
    process.exit(2);
  }
}

function main(): void {
  requireDebianPytest();
  const args = process.argv.slice(2);
  const flag = (name: string, dflt: string) => {
    const i = args.indexOf(`--${name}`);
    return i >= 0 ? args[i + 1]! : dflt;
  };
  const only = flag('only', '');
  const out = resolve(flag('out', 'fixtures/hard'));
  const sources = JSON.parse(readFileSync(flag('sources', 'scripts/hard-sources.json'), 'utf8')) as Sources;
  for (const d of ['semantic-merge', 'backport', '_assets/bundles', '_assets/tests'])
    mkdirSync(join(out, d), { recursive: true });
  const rows: Row[] = [];
  const scratches = new Map<string, string>();
  const scratchFor = (p: Project) => {
    if (!scratches.has(p.mirror)) scratches.set(p.mirror, scratchRepo(p.mirror));
    return scratches.get(p.mirror)!;
  };
  const project = (name: string) => {
    const p = sources.projects[name];
    if (!p) throw new Error(`no project ${name} in the sources`);
    if (!existsSync(p.mirror)) throw new Error(`${p.repo}: no mirror at ${p.mirror} (fetch it first)`);
    return p;
  };
  try {
    for (const spec of withBlindOriginals<MergeSpec>(sources.semanticMerges))
      if (!only || only.split(',').includes(spec.id))
        semanticMerge(spec, project(spec.project), scratchFor(project(spec.project)), out, rows);
    for (const spec of withBlindOriginals<RebaseSpec>(sources.rebases ?? []))
      if (!only || only.split(',').includes(spec.id))
        longRebase(spec, project(spec.project), scratchFor(project(spec.project)), out, rows);
    for (const spec of sources.backports)
      if (!only || only.split(',').includes(spec.id))
        backport(spec, project(spec.project), scratchFor(project(spec.project)), out, rows);
  } finally {
    for (const dir of scratches.values()) rmSync(dir, { recursive: true, force: true });
  }
  for (const r of rows)
    process.stdout.write(`| ${r.kind} | ${r.id} | ${r.project.repo} | ${r.project.licence} | ${r.commits} |\n`);
}

main();
