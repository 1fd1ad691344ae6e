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
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { stringify } from 'yaml';
import { shellQuote } from '../packages/core/src/shell-quote';
import { bundle, commitMeta, git, gitBuf, recreate, restrictedTree, scratchRepo, type CommitMeta } from './lib/history-mining';

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
}

interface MergeSpec {
  id: string;
  project: string;
  merge: string;
  /** The incoming branch's name in the task (the real branch the merge brought in). */
  theirsBranch: string;
}

interface BackportSpec {
  id: string;
  project: string;
  fix: string;
  /** Newest line first; each line's port is scripts/hard-ports/<id>/<branch>.patch against its tag. */
  lines: { branch: string; tag: string }[];
}

interface Sources {
  projects: Record<string, Project>;
  semanticMerges: MergeSpec[];
  backports: BackportSpec[];
}

const sh = shellQuote;
const b64 = (b: Buffer | string) => (typeof b === 'string' ? Buffer.from(b, 'utf8') : b).toString('base64');
const subjectOf = (m: CommitMeta) => m.message.split('\n')[0]!.trim();
const BUNDLE = '.hard.bundle';
/** Files the scorer's test run removes from a tree before laying the pinned ones over it (tests-run.py). */
const HARNESS_FILES = new Set(['conftest.py', 'sitecustomize.py', 'usercustomize.py', 'pytest.ini', 'tox.ini', 'setup.cfg', 'pyproject.toml', 'pytest.py', 'py.py']);

function keptPaths(repo: string, commit: string, keep: string[]): string[] {
  const top = new Set(git(repo, ['ls-tree', '--name-only', commit]).split('\n').filter(Boolean));
  return keep.filter((p) => top.has(p.split('/')[0]!));
}

/** A commit re-created over the kept paths of `original`'s tree (or of `treeFrom`). */
function trimmed(scratch: string, p: Project, original: string, parents: string[], treeFrom = original): string {
  return recreate(scratch, commitMeta(p.mirror, original), restrictedTree(scratch, treeFrom, keptPaths(p.mirror, treeFrom, p.keep)), parents);
}

/**
 * The tests directory of `commit` as a reproducible .tar.gz: archived from a commit with a fixed date
 * (git archive takes every file's time from the commit), so the bytes never change.
 */
function testsArchive(scratch: string, commit: string, dir: string, out: string): void {
  const tree = git(scratch, ['rev-parse', `${commit}:${dir}`]).trim();
  const holder = git(scratch, ['commit-tree', tree], {
    input: 'pinned tests\n',
    env: { GIT_AUTHOR_NAME: 'gitbench', GIT_AUTHOR_EMAIL: 'bench@example.com', GIT_AUTHOR_DATE: '946684800 +0000', GIT_COMMITTER_NAME: 'gitbench', GIT_COMMITTER_EMAIL: 'bench@example.com', GIT_COMMITTER_DATE: '946684800 +0000' },
  }).trim();
  writeFileSync(out, gitBuf(scratch, ['archive', '--format=tar.gz', holder]));
}

/**
 * Runs the project's tests on a tree the way the scorer does (tests-run.py): the tree written out of
 * the object database, harness files removed, the pinned tests laid over it, a clean environment and
 * an empty pytest.ini above the tree (so the project's own pytest configuration is not read).
 */
function runTests(scratch: string, tree: string, p: Project, testsTarGz: string): { passed: boolean; exit: number; summary: string } {
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
      PYTHONPATH: p.pythonpath.map((d) => join(root, d)).join(':'),
    };
    // Debian's interpreter (with python3-pytest), as in the sandbox, whatever python3 is first on PATH here.
    mkdirSync(join(work, 'bin'));
    execFileSync('ln', ['-s', '/usr/bin/python3', join(work, 'bin', 'python3')]);
    const run = spawnSync('/bin/bash', ['-c', p.command], { cwd: root, env, encoding: 'utf8', timeout: 300_000, maxBuffer: 64 * 1024 * 1024 });
    const out = `${run.stdout ?? ''}${run.stderr ?? ''}`;
    const summary = out.trim().split('\n').reverse().find((l) => /\bin [0-9.]+s\b/.test(l)) ?? out.trim().split('\n').at(-1) ?? '';
    const failed = out.split('\n').filter((l) => /^(FAILED|ERROR) /.test(l)).slice(0, 3);
    if (process.env.HARD_MINE_DEBUG && run.status !== 0) process.stderr.write(`${out.slice(-3000)}\n`);
    // Without the run's duration, so the YAML that quotes it is the same on every run.
    return { passed: run.status === 0, exit: run.status ?? -1, summary: [summary.trim().replace(/ in [0-9.]+s\b/, ''), ...failed].join('; ').split(`${root}/`).join('') };
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
    git(scratch, ['update-index', '--cacheinfo', `100644,${blob},${path}`], { env });
  }
  return git(scratch, ['write-tree'], { env }).trim();
}

function conflictedFiles(scratch: string, ours: string, theirs: string): string[] {
  const out = git(scratch, ['merge-tree', '--write-tree', '--name-only', '--no-messages', ours, theirs], { allowFail: true });
  if (!out.startsWith('\u0000EXIT1\u0000')) return [];
  return out.slice('\u0000EXIT1\u0000'.length).split('\n').slice(1).filter(Boolean);
}

/** git merge-file over the three stages of a path, resolving every conflict one way. */
function mergeFile(scratch: string, how: 'ours' | 'theirs' | 'union', base: string, ours: string, theirs: string, path: string): Buffer {
  const dir = mkdtempSync(join(tmpdir(), 'hard-mf-'));
  try {
    const read = (rev: string) => {
      const r = spawnSync('git', ['cat-file', 'blob', `${rev}:${path}`], { cwd: scratch });
      return r.status === 0 ? r.stdout : Buffer.alloc(0);
    };
    writeFileSync(join(dir, 'o'), read(ours));
    writeFileSync(join(dir, 'b'), read(base));
    writeFileSync(join(dir, 't'), read(theirs));
    const r = spawnSync('git', ['merge-file', `--${how}`, '-p', join(dir, 'o'), join(dir, 'b'), join(dir, 't')], { cwd: scratch, maxBuffer: 64 * 1024 * 1024 });
    return r.stdout;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function setupSteps(): string[] {
  // Every ref of the bundle becomes a branch; the bundle file itself does not stay in the repository.
  return [`git init -q && git fetch -q --update-head-ok ${BUNDLE} 'refs/heads/*:refs/heads/*' && rm -f ${BUNDLE} .git/FETCH_HEAD && git reset -q --hard main`];
}

/** The source block the suite records (repo_checks' `scoring.source`): original commit ids, and what the fixture made. */
function sourceBlock(p: Project, commits: Record<string, string>, staged: string) {
  return { repository: `https://github.com/${p.repo}`, licence: p.licence, commits, staged };
}

function testRun(p: Project, overlayAsset: string) {
  return { command: p.command, overlay: { [`${p.tests}/`]: overlayAsset }, pythonpath: p.pythonpath, timeout: 300 };
}

function runLine(p: Project): string {
  const pp = p.pythonpath.join(':');
  return `${pp ? `PYTHONPATH=${pp} ` : ''}${p.command}`;
}

// ---------------------------------------------------------------------------------------------------
// Semantic merges

interface Row {
  kind: string;
  id: string;
  project: Project;
  commits: string;
}

function semanticMerge(spec: MergeSpec, p: Project, scratch: string, out: string, rows: Row[]): void {
  const [ours, theirs, ...more] = commitMeta(p.mirror, spec.merge).parents;
  if (!ours || !theirs || more.length) throw new Error(`${spec.id}: ${spec.merge} is not a two-parent merge`);
  const bases = git(p.mirror, ['merge-base', '--all', ours, theirs]).split('\n').filter(Boolean);
  if (bases.length !== 1) throw new Error(`${spec.id}: ${bases.length} merge bases`);
  const base = bases[0]!;
  const b = trimmed(scratch, p, base, []);
  const o = trimmed(scratch, p, ours, [b]);
  const t = trimmed(scratch, p, theirs, [b]);
  const m = trimmed(scratch, p, spec.merge, [o, t]);
  const files = conflictedFiles(scratch, o, t);
  const code = files.filter((f) => f.endsWith('.py') && !f.startsWith(`${p.tests}/`));
  if (code.length === 0) throw new Error(`${spec.id}: the compact history has no conflict in code (${files.join(', ') || 'no conflict'})`);
  for (const f of files) if (/^<<<<<<< /m.test(git(scratch, ['cat-file', 'blob', `${m}:${f}`], { allowFail: true }))) throw new Error(`${spec.id}: the real merge keeps conflict markers in ${f}`);

  const testsAsset = `_assets/tests/${spec.id}.tar.gz`;
  testsArchive(scratch, m, p.tests, join(out, testsAsset));
  const tarPath = join(out, testsAsset);
  const verdicts: Record<string, { passed: boolean; summary: string }> = {};
  verdicts.merge = runTests(scratch, m, p, tarPath);
  if (!verdicts.merge.passed) throw new Error(`${spec.id}: the tests fail on the real merge: ${verdicts.merge.summary}`);
  const remerged = git(scratch, ['merge-tree', '--write-tree', '--no-messages', o, t], { allowFail: true });
  // allowFail marks a failed run as NUL EXIT<code> NUL before its output.
  const autoMerged = (remerged.startsWith('\u0000') ? remerged.slice(remerged.indexOf('\u0000', 1) + 1) : remerged).split('\n')[0]!;
  for (const how of ['ours', 'theirs', 'union'] as const) {
    const tree = withFiles(scratch, autoMerged, Object.fromEntries(files.map((f) => [f, mergeFile(scratch, how, b, o, t, f)])));
    const commit = git(scratch, ['commit-tree', tree, '-p', o, '-p', t], { input: `${how}\n` }).trim();
    verdicts[how] = runTests(scratch, commit, p, tarPath);
    if (verdicts[how].passed) throw new Error(`${spec.id}: the tests pass when every conflict keeps ${how}: not a semantic merge`);
  }
  bundle(scratch, { 'refs/heads/main': o, [`refs/heads/${spec.theirsBranch}`]: t }, join(out, '_assets', 'bundles', `${spec.id}.bundle`));

  const metas = { base: commitMeta(p.mirror, base), ours: commitMeta(p.mirror, ours), theirs: commitMeta(p.mirror, theirs), merge: commitMeta(p.mirror, spec.merge) };
  const sideLog = (from: string, to: string) =>
    git(p.mirror, ['log', '--no-merges', '--format=%s', `${from}..${to}`, '--', ...code]).split('\n').filter(Boolean).slice(0, 8);
  const oursLog = sideLog(base, ours);
  const theirsLog = sideLog(base, theirs);
  // The reference: the real merge's tree, reached from the conflicted state without leaving the merge.
  const patch = b64(gitBuf(scratch, ['diff', '--binary', '--full-index', o, m]));
  const reference = [`git read-tree --reset -u HEAD`, `printf '%s' ${patch} | base64 -d | git apply --index`, 'git commit -q --no-edit'].join(' && ');
  const quoted = files.map(sh).join(' ');
  const resolveWith = (how: string) =>
    `for f in ${quoted}; do git show :2:"$f" > /tmp/o 2>/dev/null || : > /tmp/o; git show :1:"$f" > /tmp/b 2>/dev/null || : > /tmp/b; git show :3:"$f" > /tmp/t 2>/dev/null || : > /tmp/t; git merge-file --${how} /tmp/o /tmp/b /tmp/t; cp /tmp/o "$f"; done; git add -A && git commit -q --no-edit`;

  const ticket = [
    `We are merging the ${spec.theirsBranch} branch of ${p.repo.split('/')[1]} (${p.repo}) into main, and the merge stopped on conflicts.`,
    `The merge is already under way in this repository: main is checked out and \`git merge ${spec.theirsBranch}\` has run.`,
    '',
    'Conflicted files:',
    ...files.map((f) => `- ${f}`),
    '',
    'Both branches changed the logic in these regions, so neither side can simply win. What each side did to the',
    'conflicted code since the two branches parted:',
    `- main: ${oursLog.length ? oursLog.join('; ') : subjectOf(metas.ours)}`,
    `- ${spec.theirsBranch}: ${theirsLog.length ? theirsLog.join('; ') : subjectOf(metas.theirs)}`,
    '',
    'Finish the merge so that main keeps the behaviour of both sides, and commit it.',
    '',
    'What is checked, on the repository you leave:',
    `- main is a merge commit whose first parent is main as it was before the merge and whose second parent is ${spec.theirsBranch};`,
    '- no tracked file of main holds a conflict marker line;',
    `- the project's test suite as it stands after the merge (both sides' tests) passes on main's tree: \`${runLine(p)}\`.`,
    `  The tests are pinned: the checker runs its own copy of the merged \`${p.tests}/\` directory, so editing tests changes nothing.`,
    'The merge result is not compared with any particular resolution; the tests decide.',
  ].join('\n');
  const doc = {
    id: spec.id,
    description: `Semantic merge of ${spec.theirsBranch} into main in ${p.repo}: ${files.length} conflicted file(s), logic changed on both sides`,
    purpose: 'Resolve a real merge whose both sides changed code logic in the conflicted regions, judged by the project\'s tests, which fail on either side alone and on a naive union.',
    difficulty: 'hard',
    tags: ['hard', 'semantic-merge', 'python', p.repo.split('/')[1]!],
    files: [{ asset: `_assets/bundles/${spec.id}.bundle`, to: BUNDLE }],
    assets: [testsAsset],
    setup: [...setupSteps(), `git merge --no-ff --no-edit ${spec.theirsBranch}`],
    // A single answer sees the conflicts (the combined diff) and what each side brought.
    context: ['git status --short', 'git diff'],
    prompt: `${ticket}\n\nOutput a bash script, run from the repository root, that finishes the merge.`,
    agent: { prompt: `${ticket}\n\nWork in the repository, then call submit.`, scored_on: 'repository' },
    expected: reference,
    scoring: {
      type: 'repo_checks',
      checks: [
        { type: 'ref_equals', ref: 'main^1', commit: o },
        { type: 'ref_equals', ref: 'main^2', commit: t },
        { type: 'no_conflict_markers', rev: 'main' },
        { type: 'tests_pass', rev: 'main', ...testRun(p, testsAsset) },
      ],
      reference_tool_calls: [{ name: 'bash', args: { command: reference } }],
      source: sourceBlock(
        p,
        { base, ours, theirs, merge: spec.merge },
        `Each side re-created as one commit on the merge base (main ${o}, ${spec.theirsBranch} ${t}; the real merge re-created as ${m}), with the original messages, authors and dates; trees cut to ${p.keep.join(', ')}.`,
      ),
      measured: Object.fromEntries(Object.entries(verdicts).map(([k, v]) => [k, v.summary])),
    },
    negatives: [
      { answer: 'true', why: 'nop: the merge is left unfinished, with conflict markers.' },
      { answer: resolveWith('ours'), why: `Every conflict resolved to main's side: the tests fail (${verdicts.ours!.summary}).` },
      { answer: resolveWith('theirs'), why: `Every conflict resolved to ${spec.theirsBranch}'s side: the tests fail (${verdicts.theirs!.summary}).` },
      { answer: resolveWith('union'), why: `Both sides kept in every conflict (a naive union): the tests fail (${verdicts.union!.summary}).` },
      { answer: 'git add -A && git commit -q --no-edit', why: 'Committing the conflicted files as they are leaves conflict markers.' },
    ],
  };
  writeYaml(join(out, 'semantic-merge', `${spec.id}.yaml`), doc);
  rows.push({ kind: 'semantic-merge', id: spec.id, project: p, commits: `merge ${spec.merge.slice(0, 12)}` });
  process.stderr.write(`  ${spec.id}: ${files.length} conflicted file(s); merge ${verdicts.merge.summary}; ours/theirs/union fail\n`);
}

// ---------------------------------------------------------------------------------------------------
// Backports

function backport(spec: BackportSpec, p: Project, scratch: string, out: string, rows: Row[]): void {
  const fixMeta = commitMeta(p.mirror, spec.fix);
  const parent = fixMeta.parents[0]!;
  const mainParent = trimmed(scratch, p, parent, []);
  const main = trimmed(scratch, p, spec.fix, [mainParent]);
  const refs: Record<string, string> = { 'refs/heads/main': main };
  const lines: { branch: string; tag: string; tip: string; tagCommit: string; ported: string; asset: string; patch: string; summaries: Record<string, string> }[] = [];
  for (const line of spec.lines) {
    const tagCommit = git(p.mirror, ['rev-parse', `${line.tag}^{commit}`]).trim();
    const tip = trimmed(scratch, p, tagCommit, []);
    refs[`refs/heads/${line.branch}`] = tip;
    // The port, made by hand against the line's tag, becomes a commit with the fix's message.
    const patchFile = resolve('scripts/hard-ports', spec.id, `${line.branch}.patch`);
    const wt = mkdtempSync(join(tmpdir(), 'hard-port-'));
    let ported: string;
    try {
      git(scratch, ['worktree', 'add', '-q', '--detach', wt, tip]);
      git(wt, ['apply', '--index', patchFile]);
      const tree = git(wt, ['write-tree']).trim();
      ported = recreate(scratch, fixMeta, tree, [tip]);
    } finally {
      git(scratch, ['worktree', 'remove', '--force', wt], { allowFail: true });
      rmSync(wt, { recursive: true, force: true });
    }
    const asset = `_assets/tests/${spec.id}-${line.branch}.tar.gz`;
    testsArchive(scratch, ported, p.tests, join(out, asset));
    const before = runTests(scratch, tip, p, join(out, asset));
    const after = runTests(scratch, ported, p, join(out, asset));
    if (before.passed) throw new Error(`${spec.id}: on ${line.branch} the tests already pass before the port (${before.summary})`);
    if (!after.passed) throw new Error(`${spec.id}: on ${line.branch} the tests fail after the port (${after.summary})`);
    const patch = b64(gitBuf(scratch, ['diff', '--binary', '--full-index', tip, ported]));
    lines.push({ ...line, tip, tagCommit, ported, asset, patch, summaries: { before: before.summary, after: after.summary } });
  }
  // Taking main's version of the fixed files wholesale: newer code on an older line.
  const fixedFiles = git(scratch, ['diff', '--name-only', mainParent, main]).split('\n').filter(Boolean);
  const wholesale = lines
    .map((l) => `git checkout -q ${sh(l.branch)} && git checkout main -- ${fixedFiles.map(sh).join(' ')} && git commit -q -m ${sh(subjectOf(fixMeta))}`)
    .join(' && ');
  const wholesaleRuns = lines.map((l) => {
    const tree = withFiles(scratch, l.tip, Object.fromEntries(fixedFiles.map((f) => [f, gitBuf(scratch, ['cat-file', 'blob', `${main}:${f}`])])));
    return runTests(scratch, git(scratch, ['commit-tree', tree, '-p', l.tip], { input: 'wholesale\n' }).trim(), p, join(out, l.asset));
  });
  if (wholesaleRuns.every((r) => r.passed)) throw new Error(`${spec.id}: taking main's files wholesale passes every line`);
  bundle(scratch, refs, join(out, '_assets', 'bundles', `${spec.id}.bundle`));

  const portTo = (l: (typeof lines)[number]) => `git checkout -q ${sh(l.branch)} && printf '%s' ${l.patch} | base64 -d | git apply --index && git commit -q -F - <<'GITBENCH_MSG'\n${fixMeta.message.replace(/\n+$/, '')}\nGITBENCH_MSG`;
  const reference = [...lines.map(portTo), 'git checkout -q main'].join('\n');
  const subject = subjectOf(fixMeta);
  const ticket = [
    `A fix landed on main of ${p.repo.split('/')[1]} (${p.repo}): "${subject}" (the tip commit of main, \`git show main\`).`,
    `Users of the older release lines need it too. Backport it to ${lines.map((l) => `\`${l.branch}\``).join(' and ')} (branches of this repository; ${lines.map((l) => `${l.branch} is at the ${l.tag} release`).join(', ')}).`,
    'The code has diverged between the lines, so adapt the change to each line rather than copying newer code onto it;',
    'each line must keep working with what it has (its own Python compatibility code, its own APIs).',
    '',
    'What is checked, on the repository you leave:',
    ...lines.flatMap((l) => [
      `- \`${l.branch}\` is its old tip plus exactly one new commit on top (no merge), whose subject line is the fix's: "${subject}";`,
      `- on \`${l.branch}\`, the line's own tests plus the fix's regression test, ported to that line, pass: \`${runLine(p)}\``,
      `  (the checker runs its own pinned copy of \`${p.tests}/\` for the line, so editing tests changes nothing);`,
    ]),
    '- main is left as it is.',
  ].join('\n');
  const doc = {
    id: spec.id,
    description: `Backport of "${subject}" from ${p.repo} main to ${lines.map((l) => l.branch).join(' and ')}`,
    purpose: 'Port a real fix to older release lines whose code diverged, judged on each line by the fix\'s regression test and the line\'s own tests.',
    difficulty: 'hard',
    tags: ['hard', 'backport', 'python', p.repo.split('/')[1]!],
    files: [{ asset: `_assets/bundles/${spec.id}.bundle`, to: BUNDLE }],
    assets: lines.map((l) => l.asset),
    setup: setupSteps(),
    context: ['git branch -v', 'git show main'],
    prompt: `${ticket}\n\nOutput a bash script, run from the repository root, that makes the backports.`,
    agent: { prompt: `${ticket}\n\nWork in the repository, then call submit.`, scored_on: 'repository' },
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
        { fix: spec.fix, ...Object.fromEntries(lines.map((l) => [l.tag, l.tagCommit])) },
        `main is the fix on its parent (${main}); each line is its release tag as one commit (${lines.map((l) => `${l.branch} ${l.tip}`).join(', ')}); trees cut to ${p.keep.join(', ')}. The reference ports (${lines.map((l) => `${l.branch} ${l.ported}`).join(', ')}) were adapted by hand: scripts/hard-ports/${spec.id}/.`,
      ),
      measured: Object.fromEntries(lines.map((l, i) => [l.branch, { ...l.summaries, wholesale: wholesaleRuns[i]!.summary }])),
    },
    negatives: [
      { answer: 'true', why: 'nop: no line gets the fix; its regression test fails on each.' },
      { answer: [portTo(lines[0]!), 'git checkout -q main'].join('\n'), why: `Only ${lines[0]!.branch} is ported; ${lines.slice(1).map((l) => l.branch).join(', ')} still fails the regression test.` },
      { answer: wholesale, why: `Copying main's version of the fixed files onto the lines brings newer code that the older lines cannot run (${lines.map((l, i) => `${l.branch}: ${wholesaleRuns[i]!.summary}`).join('; ')}).` },
      {
        answer: lines.map((l) => `git checkout -q ${sh(l.branch)} && git commit -q --allow-empty -m ${sh(subject)}`).join(' && '),
        why: 'A commit with the right subject but no change: the regression tests fail.',
      },
    ],
  };
  writeYaml(join(out, 'backport', `${spec.id}.yaml`), doc);
  rows.push({ kind: 'backport', id: spec.id, project: p, commits: `fix ${spec.fix.slice(0, 12)} onto ${spec.lines.map((l) => l.tag).join(', ')}` });
  process.stderr.write(`  ${spec.id}: ${lines.map((l) => `${l.branch} ${l.summaries.before} -> ${l.summaries.after}`).join('; ')}\n`);
}

function writeYaml(path: string, doc: Record<string, unknown>): void {
  writeFileSync(path, stringify(doc, { lineWidth: 0, blockQuote: 'literal' }));
}

function main(): void {
  const args = process.argv.slice(2);
  const flag = (name: string, dflt: string) => {
    const i = args.indexOf(`--${name}`);
    return i >= 0 ? args[i + 1]! : dflt;
  };
  const only = flag('only', '');
  const out = resolve(flag('out', 'fixtures/hard'));
  const sources = JSON.parse(readFileSync(flag('sources', 'scripts/hard-sources.json'), 'utf8')) as Sources;
  for (const d of ['semantic-merge', 'backport', '_assets/bundles', '_assets/tests']) mkdirSync(join(out, d), { recursive: true });
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
    for (const spec of sources.semanticMerges) if (!only || only.split(',').includes(spec.id)) semanticMerge(spec, project(spec.project), scratchFor(project(spec.project)), out, rows);
    for (const spec of sources.backports) if (!only || only.split(',').includes(spec.id)) backport(spec, project(spec.project), scratchFor(project(spec.project)), out, rows);
  } finally {
    for (const dir of scratches.values()) rmSync(dir, { recursive: true, force: true });
  }
  for (const r of rows) process.stdout.write(`| ${r.kind} | ${r.id} | ${r.project.repo} | ${r.project.licence} | ${r.commits} |\n`);
}

main();
