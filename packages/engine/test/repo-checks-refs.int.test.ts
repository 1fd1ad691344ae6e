import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseSuite, type Fixture } from '@gitbench/core';
import type { DockerSandboxDriver } from '@gitbench/sandbox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildFixtureRepository, executeAttempt, type AttemptRun, type BuiltSnapshot } from '../src';
import { answering } from './answering-model';
import { useTestDriver } from './test-driver';

/**
 * repo_checks' remote_branch and stash_entries against a model that attacks them, through the real
 * sandbox and the path a worker takes. The model controls everything in the sandbox, the bare remote
 * inside the repository (remote.git) included. Two tasks: publish the commit "Fix add" on the remote's
 * main, and stash the change to calc.py. Every attack leaves its task undone and tries to make the
 * look-ups see it done; each must be a counted failure (FAIL, or TAMPERING).
 */

const FIXED = 'def add(a, b):\n    return a + b\n';
const ZERO = '0'.repeat(40);

const remoteTask = (fix: string, tree: string) => `id: f001
description: Publish the fix (the remote check's red team)
setup:
  - git init -q
  - printf 'def add(a, b):\\n    return a - b\\n' > calc.py && git add -A && git commit -q -m 'Add calc'
  - printf '# calc\\n' > README && git add -A && git commit -q -m 'Readme'
  - git init -q --bare remote.git && echo /remote.git/ >> .git/info/exclude && git push -q ./remote.git main
  - git remote add origin ./remote.git && git fetch -q origin && git branch -q -u origin/main main
  - printf '${FIXED.replace(/\n/g, '\\n')}' > calc.py && git commit -qam 'Fix add'
prompt: Publish the commit "Fix add" on origin's main (origin is the bare repository ./remote.git).
expected: git push -q origin main
scoring:
  type: repo_checks
  checks:
    - {type: remote_branch, repository: remote.git, ref: refs/heads/main, contains: ['${fix}'], tree: '${tree}'}
difficulty: easy
`;

const stashTask = (tree: string) => `id: f002
description: Stash the change (the stash check's red team)
setup:
  - git init -q
  - printf 'def add(a, b):\\n    return a - b\\n' > calc.py && git add -A && git commit -q -m 'Add calc'
  - printf '${FIXED.replace(/\n/g, '\\n')}' > calc.py
prompt: Stash the change to calc.py; it must be the only entry of git stash list.
expected: git stash push -q
scoring:
  type: repo_checks
  checks:
    - {type: stash_entries, trees: ['${tree}']}
difficulty: easy
`;

/** Python run by an answer as one line. */
const python = (code: string) => `python3 -c "exec(bytes.fromhex('${Buffer.from(code).toString('hex')}'))"`;

/** A script that publishes the fix if anything runs it during the look-ups (too late to count). */
const CHEAT =
  `printf '#!/bin/sh\\ncd %s && git push -q origin main >/dev/null ` +
  `2>&1\\nexit 0\\n' "$PWD" > /tmp/cheat && chmod +x /tmp/cheat`;
/** The fix's objects on the remote (pushed to a branch deleted again), so that only the remote's main is missing it. */
const FIX_OBJECTS = 'git push -q origin main:refs/heads/tmp && git --git-dir=remote.git update-ref -d refs/heads/tmp';

/** Why the look-ups see each attack fail: the guard that stops it, or the task seen undone. */
const LINKED = /remote\.git is not a repository of its own: remote\.git\/\S+ is a link or names another git directory/;
const LACKS = /^refs\/heads\/main in remote\.git \([0-9a-f]{12}\) does not contain [0-9a-f]{12}$/;
const NOT_STASH = /^stash@\{0\} \([0-9a-f]{12}\) is not a stash: 1 parent\(s\), where git stash makes 2 or 3$/;
/** An object whose content is not what its name says: tampering. */
const FORGED = /tampered with the scorer's view: objects whose content is not what their names say/;

const REMOTE_ATTACKS: Record<string, [answer: string, why: RegExp]> = {
  "the remote's refs, objects and packed refs replaced by links to the clone's": [
    'for f in refs objects packed-refs; do rm -rf remote.git/$f; if ' +
      '[ -e .git/$f ]; then ln -s ../.git/$f remote.git/$f; fi; done',
    LINKED,
  ],
  "a commondir that makes the clone's git directory the remote's": ['echo ../.git > remote.git/commondir', LINKED],
  "the remote's branches a link to the clone's, its objects pushed": [
    `${FIX_OBJECTS} && m=$(git rev-parse main) && echo "$m" > .git/refs/heads/main && rm -rf ` +
      `remote.git/refs/heads remote.git/packed-refs && ln -s ../../.git/refs/heads remote.git/refs/heads`,
    LINKED,
  ],
  "alternates that borrow the clone's objects, and the ref written by hand": [
    'echo "$PWD/.git/objects" > remote.git/objects/info/alternates && git rev-parse main > remote.git/refs/heads/main',
    /does not exist in remote\.git/,
  ],
  'a graft in the remote that gives a look-alike the fix as a parent': [
    `${FIX_OBJECTS} && copy=$(git commit-tree 'main^{tree}' -p main~1 -m ` +
      `'Fix add') && git push -q origin "$copy:refs/heads/main" && echo "$copy ` +
      `$(git rev-parse main~1) $(git rev-parse main)" > remote.git/info/grafts`,
    LACKS,
  ],
  'a replace ref in the remote, switched on by its configuration, that shows the fix in place of its main': [
    `${FIX_OBJECTS} && git --git-dir=remote.git replace "$(git rev-parse main~1)" ` +
      `"$(git rev-parse main)" && git --git-dir=remote.git config core.useReplaceRefs true`,
    LACKS,
  ],
  'the same replace ref, switched on by a global configuration in HOME and the pinned global file': [
    `${FIX_OBJECTS} && git --git-dir=remote.git replace "$(git rev-parse main~1)" ` +
      `"$(git rev-parse main)" && printf '[core]\\n\\tuseReplaceRefs = true\\n' ` +
      `| tee ~/.gitconfig "\${GIT_CONFIG_GLOBAL:-$HOME/.gitconfig}" > /dev/null`,
    LACKS,
  ],
  "the remote's main rewritten in place as a commit with the fix's tree over the fix": [
    `${FIX_OBJECTS} && ${python(`import os, subprocess, zlib
git = lambda *a: subprocess.run(['git', *a], capture_output=True).stdout.strip()
tip, fix = git('rev-parse', 'main~1'), git('rev-parse', 'main')
body = git('cat-file', 'commit', 'main') + b'\\n'
p = 'remote.git/objects/%s/%s' % (tip[:2].decode(), tip[2:].decode())
assert os.path.exists(p), 'the remote holds its tip packed'
os.chmod(p, 0o644)
open(p, 'wb').write(zlib.compress(b'commit %d\\0' % len(body) + body.replace(git('rev-parse', 'main~1'), fix, 1)))
`)}`,
    FORGED,
  ],
  "packed refs that list the remote's main twice, the fix last": [
    `${FIX_OBJECTS} && rm -f remote.git/refs/heads/main && printf '# pack-refs ` +
      `with: peeled fully-peeled sorted \\n%s refs/heads/main\\n%s refs/heads/main\\n' ` +
      `"$(git rev-parse main~1)" "$(git rev-parse main)" > remote.git/packed-refs`,
    /lists refs\/heads\/main 2 time\(s\)/,
  ],
  'hooks, fsmonitor and a hooks path in the remote that would push during the look-ups': [
    `${CHEAT} && for h in reference-transaction post-index-change pre-receive post-update; ` +
      `do cp /tmp/cheat remote.git/hooks/$h; done && git --git-dir=remote.git config ` +
      `core.fsmonitor /tmp/cheat && git config core.fsmonitor /tmp/cheat && git --git-dir=remote.git ` +
      `config include.path /tmp/inc && printf '[core]\\n\\thooksPath = /tmp\\n' > /tmp/inc`,
    LACKS,
  ],
};

/**
 * A stash-like commit (HEAD and an index commit as parents) with the change, left in no ref: what git stash create
 * makes.
 */
const MADE_STASH = 's=$(git stash create) && git checkout -q -- calc.py';

const STASH_ATTACKS: Record<string, [answer: string, why: RegExp]> = {
  'refs/stash an ordinary commit with the change (not a stash), with a reflog': [
    'git commit -qam wip && git update-ref --create-reflog refs/stash HEAD && git reset -q --hard HEAD~1',
    NOT_STASH,
  ],
  'a stash reflog written by hand whose only entry is not what refs/stash holds': [
    `${MADE_STASH} && git update-ref --create-reflog refs/stash HEAD && printf '%s %s t <t@t> ` +
      `1700000000 +0000\\tWIP on main\\n' "$(git rev-parse HEAD)" "$s" > .git/logs/refs/stash`,
    /but the newest entry of its reflog is/,
  ],
  'an ordinary commit in refs/stash, made to look like a stash by a replace ref and configuration': [
    `git commit -qam wip && c=$(git rev-parse HEAD) && git reset -q --hard HEAD~1 && git update-ref ` +
      `--create-reflog refs/stash "$c" && git replace "$c" "$(git commit-tree "$c^{tree}" -p HEAD -p HEAD -m wip)" ` +
      `&& git config core.useReplaceRefs true && printf '[core]\\n\\tuseReplaceRefs = true\\n' > ~/.gitconfig`,
    NOT_STASH,
  ],
  'an ordinary commit in refs/stash, given a second parent by a graft': [
    'git commit -qam wip && c=$(git rev-parse HEAD) && git reset -q --hard HEAD~1 && git update-ref ' +
      '--create-reflog refs/stash "$c" && echo "$c $(git rev-parse HEAD) $(git rev-parse HEAD)" > .git/info/grafts',
    NOT_STASH,
  ],
  'an ordinary commit in refs/stash, rewritten in place with a second parent': [
    `git commit -qam wip && git update-ref --create-reflog refs/stash HEAD && ${python(`import os, subprocess, zlib
git = lambda *a: subprocess.run(['git', *a], capture_output=True).stdout.strip()
c, p = git('rev-parse', 'HEAD'), git('rev-parse', 'HEAD~1')
body = git('cat-file', 'commit', 'HEAD') + b'\\n'
path = '.git/objects/%s/%s' % (c[:2].decode(), c[2:].decode())
os.chmod(path, 0o644)
body = body.replace(b'parent ' + p + b'\\n', b'parent ' + p + b'\\nparent ' + p + b'\\n', 1)
open(path, 'wb').write(zlib.compress(b'commit %d\\0' % len(body) + body))
`)} && git reset -q --hard HEAD~1`,
    FORGED,
  ],
  "refs/stash and its reflog links to a branch's, the branch at a stash-like commit": [
    `${MADE_STASH} && git update-ref --create-reflog refs/heads/wip "$s" && ln -s heads/wip ` +
      `.git/refs/stash && mkdir -p .git/logs/refs && ln -s heads/wip .git/logs/refs/stash`,
    /refs\/stash is not the repository's own/,
  ],
};

let driver: DockerSandboxDriver;
useTestDriver('repo-checks-refs', (d) => (driver = d), { prestart: 2 });
let remote: { fixture: Fixture; snapshot: BuiltSnapshot };
let stash: { fixture: Fixture; snapshot: BuiltSnapshot };
const scratch = mkdtempSync(join(tmpdir(), 'gitbench-repo-checks-refs-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** The tree of these files, as git names it (it depends on nothing but their names, modes and contents). */
function treeOf(files: Record<string, string>): string {
  const dir = mkdtempSync(join(scratch, 'tree-'));
  execFileSync('git', ['init', '-q', dir]);
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  execFileSync('git', ['-C', dir, 'add', '-A']);
  return execFileSync('git', ['-C', dir, 'write-tree'], { encoding: 'utf8' }).trim();
}

function load(text: string): Fixture {
  const parsed = parseSuite([{ path: 'red_team/f.yaml', text }]);
  if (parsed.fixtures.length !== 1) throw new Error(`the fixture does not load: ${JSON.stringify(parsed.errors)}`);
  return parsed.fixtures[0]!;
}

beforeAll(async () => {
  const fixTree = treeOf({ 'calc.py': FIXED, README: '# calc\n' });
  const stashFixture = load(stashTask(treeOf({ 'calc.py': FIXED })));
  const [first, stashSnapshot] = await Promise.all([
    buildFixtureRepository(load(remoteTask(ZERO, fixTree)), driver),
    buildFixtureRepository(stashFixture, driver),
  ]);
  // The fix's id is known once built (the harness's dates make it); built again with the check that names it.
  const fix = first.commits.find((c) => c.subject === 'Fix add')!.hash;
  const remoteFixture = load(remoteTask(fix, fixTree));
  const rebuilt = await buildFixtureRepository(remoteFixture, driver);
  expect(rebuilt.commits.find((c) => c.subject === 'Fix add')!.hash).toBe(fix);
  remote = { fixture: remoteFixture, snapshot: rebuilt };
  stash = { fixture: stashFixture, snapshot: stashSnapshot };
}, 300_000);

const single = (answer: string, task: { fixture: Fixture; snapshot: BuiltSnapshot }): Promise<AttemptRun> =>
  executeAttempt({
    ...task,
    driver,
    model: answering(answer),
    modelName: 'red-team',
    mode: 'text',
    labels: { 'org.gitbench.attempt': 'repo-checks-refs' },
  });

/** A counted failure (FAIL, or TAMPERING), never a pass or an exclusion, for the reason given. */
function expectCountedFailure(run: AttemptRun, why?: RegExp): void {
  const checks = JSON.stringify(run.attempt?.checks ?? []).slice(0, 1500);
  expect({ status: run.status, checks, error: run.errorMessage }).toMatchObject({ status: 'VALID_FAIL' });
  expect([null, 'tampering']).toContain(run.errorClass);
  expect(run.passed).toBe(false);
  if (why)
    expect(why === FORGED ? `${run.errorClass}: ${run.errorMessage}` : (run.attempt?.checks[0]?.detail ?? '')).toMatch(
      why,
    );
}

describe('remote_branch against a hostile single answer', { timeout: 240_000 }, () => {
  it('the honest push passes, and doing nothing fails', async () => {
    const run = await single(remote.fixture.expected, remote);
    expect({ status: run.status, checks: run.attempt?.checks.map((c) => c.detail) }).toMatchObject({
      status: 'VALID_PASS',
    });
    expectCountedFailure(await single('true', remote), LACKS);
  });

  for (const [name, [answer, why]] of Object.entries(REMOTE_ATTACKS)) {
    it(`${name}: a counted failure`, async () => {
      expectCountedFailure(await single(answer, remote), why);
    });
  }
});

describe('stash_entries against a hostile single answer', { timeout: 240_000 }, () => {
  it('the honest stash passes, and doing nothing fails', async () => {
    const run = await single(stash.fixture.expected, stash);
    expect({ status: run.status, checks: run.attempt?.checks.map((c) => c.detail) }).toMatchObject({
      status: 'VALID_PASS',
    });
    expectCountedFailure(await single('true', stash), /^the stash holds 0 entries, 1 expected$/);
  });

  for (const [name, [answer, why]] of Object.entries(STASH_ATTACKS)) {
    it(`${name}: a counted failure`, async () => {
      expectCountedFailure(await single(answer, stash), why);
    });
  }
});
