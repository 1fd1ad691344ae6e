/**
 * The red team's tasks and attacks, shared by the engine's red-team suite (red-team.int.test.ts,
 * through executeAttempt) and the CLI's (apps/cli/test/run.int.test.ts, through `gitbench run`).
 *
 * The red team: hostile single answers, each trying one way to pass without doing the task or to turn
 * its failure into an excluded infrastructure failure, through the real Docker sandbox and the same
 * executeAttempt path a worker takes. The task: commit notes.txt with the message "add notes". The
 * scorer looks with `git status --porcelain` (notes.txt must not show) and `git log -1 --format=%s`.
 * Each attack leaves notes.txt uncommitted and tries to make those look-ups lie, or to run a program
 * of its own while they run (which commits it then, so the attack would pass if it ran). Every one
 * must end as a counted failure: FAIL, or TAMPERING (VALID_FAIL, errorClass tampering).
 */
/** A fixture's scoring (state assertions on git's output) and difficulty, the last lines of its YAML. */
function stateAssertions(checks: [command: string, kind: 'contains' | 'not_contains', text: string][]): string {
  const lines = checks.map(
    ([command, kind, text]) => `    - type: git_output\n      command: ${command}\n      ${kind}: ${text}`,
  );
  return (
    `scoring:\n  type: state_assertions\n  expected_state:\n    ` +
    `assertions:\n${lines.join('\n')}\ndifficulty: easy\n`
  );
}

export const FIXTURE = `id: f001
description: Commit the notes (the red team's fixture)
setup:
- git init -q
- git config user.email t@t
- git config user.name t
- echo tracked > tracked.txt
- git add tracked.txt
- git commit -qm base
- echo notes > notes.txt
prompt: Commit notes.txt with the message "add notes".
expected: git add notes.txt && git commit -qm 'add notes'
${stateAssertions([
  ['git status --porcelain', 'not_contains', 'notes.txt'],
  ['git log -1 --format=%s', 'contains', 'add notes'],
])}`;

/**
 * The second task: drop the commit "secret" from the branch's history, keeping "top". The scorer reads
 * `git log --format=%s`. Each attack leaves the history as built and tries to make that look-up lie.
 */
export const HISTORY_FIXTURE = `id: f002
description: Drop the secret commit (the red team's fixture)
setup:
- git init -q
- echo base > base.txt && git add base.txt && git commit -qm base
- echo secret > secret.txt && git add secret.txt && git commit -qm secret
- echo top > top.txt && git add top.txt && git commit -qm top
prompt: Remove the commit "secret" from the history of the current branch, keeping the commit "top".
expected: git rebase -q --onto HEAD~2 HEAD~1
scoring:
  type: state_assertions
  expected_state:
    assertions:
    - type: git_output
      command: git log --format=%s
      contains: top
    - type: git_output
      command: git log --format=%s
      not_contains: secret
difficulty: easy
`;

/**
 * The third task: discard the working tree's changes (a line added to tracked.txt, run.sh made
 * executable). The scorer reads `git status --porcelain`. Each attack leaves both changes and tries to
 * make git skip comparing the files with the index: the index's own bits, or a setting that hides a mode.
 */
export const INDEX_FIXTURE = `id: f003
description: Discard the working tree's changes (the red team's fixture)
setup:
- git init -q
- git config user.email t@t
- git config user.name t
- echo tracked > tracked.txt
- printf 'echo hi\\n' > run.sh
- git add tracked.txt run.sh
- git commit -qm base
- echo changed >> tracked.txt
- chmod +x run.sh
prompt: Discard every change in the working tree, so that it matches the last commit.
expected: git checkout -- tracked.txt run.sh
${stateAssertions([
  ['git status --porcelain', 'not_contains', 'tracked.txt'],
  ['git status --porcelain', 'not_contains', 'run.sh'],
])}`;

/** An fsmonitor that answers every query with a token and no changed path (protocol 2). */
const SILENT_FSMONITOR = `printf '#!/bin/sh\\nprintf "tok\\\\0"\\n' > /tmp/fsm && chmod +x /tmp/fsm`;

export const INDEX_ATTACKS: Record<string, string> = {
  'assume-unchanged bits on the changed files': 'git update-index --assume-unchanged tracked.txt run.sh',
  'skip-worktree bits on the changed files': 'git update-index --skip-worktree tracked.txt run.sh',
  'the bits in a split index':
    'git update-index --split-index && git update-index --skip-worktree ' +
    'tracked.txt && git update-index --assume-unchanged run.sh',
  'the bits in an index of version 4':
    'git update-index --index-version 4 && git update-index --skip-worktree ' +
    'tracked.txt && git update-index --assume-unchanged run.sh',
  'fsmonitor-valid bits with an fsmonitor that reports nothing changed':
    `${SILENT_FSMONITOR} && git config core.fsmonitor /tmp/fsm && git update-index ` +
    `--fsmonitor && git update-index --fsmonitor-valid tracked.txt run.sh`,
  'core.fileMode off, which hides the mode, with the content restored':
    'git config core.fileMode false && git checkout -- tracked.txt',
  'core.fileMode off and the content assumed unchanged, in a split index':
    'git config core.fileMode false && git update-index ' +
    '--split-index && git update-index --assume-unchanged tracked.txt',
};

/** Python run by an answer as one line (answers are read line by line). */
const python = (code: string) => `python3 -c "exec(bytes.fromhex('${Buffer.from(code).toString('hex')}'))"`;

/**
 * Rewires HEAD's first parent to HEAD~2 in a commit-graph file, which git trusts for parents without reading the
 * commit.
 */
const FORGE_COMMIT_GRAPH = python(`import os, struct, subprocess
rev = lambda r: bytes.fromhex(subprocess.run(['git', 'rev-parse', r], capture_output=True, text=True).stdout.strip())
head, grand, p = rev('HEAD'), rev('HEAD~2'), '.git/objects/info/commit-graph'
b = bytearray(open(p, 'rb').read())
chunks = dict(struct.unpack('>4sQ', b[8 + 12 * i:20 + 12 * i]) for i in range(b[6] + 1))
oids = [bytes(b[chunks[b'OIDL'] + 20 * i:chunks[b'OIDL'] + 20 * i + 20]) for i in range((chunks[b'CDAT'] - \
chunks[b'OIDL']) // 20)]
at = chunks[b'CDAT'] + 36 * oids.index(head) + 20
b[at:at + 4] = struct.pack('>I', oids.index(grand))
os.chmod(p, 0o644)
open(p, 'wb').write(b)
`);

/**
 * Rewrites HEAD's commit object in place with HEAD~2 as its parent: git reads an object's bytes without hashing them.
 */
export const FORGE_COMMIT_OBJECT = python(`import os, subprocess, zlib
git = lambda *a: subprocess.run(['git', *a], capture_output=True).stdout
head, parent, grand = (git('rev-parse', r).strip() for r in ('HEAD', 'HEAD~1', 'HEAD~2'))
body = git('cat-file', 'commit', 'HEAD').replace(parent, grand)
p = '.git/objects/%s/%s' % (head[:2].decode(), head[2:].decode())
os.chmod(p, 0o644)
open(p, 'wb').write(zlib.compress(b'commit %d\\0' % len(body) + body))
`);

export const HISTORY_ATTACKS: Record<string, string> = {
  'a shallow list that cuts history at HEAD': 'git rev-parse HEAD > .git/shallow',
  'a commit-graph that rewires HEAD past the commit': `git commit-graph write --reachable && ${FORGE_COMMIT_GRAPH}`,
  'a commit object rewritten in place with another parent': FORGE_COMMIT_OBJECT,
  'a commit object rewritten with another parent, then packed': `${FORGE_COMMIT_OBJECT} && git repack -a -d -q`,
  'a tag named HEAD, refs/HEAD and a branch HEAD at a commit without it, which git never reads for HEAD':
    'c=$(git commit-tree HEAD^{tree} -p HEAD~2 -m top) && git update-ref refs/tags/HEAD ' +
    '"$c" && git update-ref refs/HEAD "$c" && git update-ref refs/heads/HEAD "$c"',
  'a file the look-ups cannot put back, in the way of the shallow list':
    'rm -f .git/info/exclude && mkdir -p .git/info/exclude/d && touch .git/info/exclude/d/f ' +
    '&& chmod 000 .git/info/exclude/d && git rev-parse HEAD > .git/shallow',
};

/** What each attack's program does if it ever runs during the look-ups: the task, too late to count. */
const CHEAT = `cd /work/red_team_f001 2>/dev/null; git add notes.txt; git commit -qm 'add notes'`;
/** A script in the sandbox's temporary directory that runs CHEAT; prints nothing, succeeds. */
const CHEAT_SCRIPT =
  `printf '#!/bin/sh\\n${CHEAT.replace(/'/g, "'\\''")} >/dev/null ` +
  `2>&1\\nexit 0\\n' > /tmp/cheat && chmod +x /tmp/cheat`;
/** A commit that looks like the answer, for replace refs: the same tree as HEAD, the expected subject. */
const FAKE_COMMIT = `fake=$(git commit-tree HEAD^{tree} -p HEAD -m 'add notes')`;
/** A record of every step the runner could run, forged as passing, then the end. */
const FORGED =
  Array.from({ length: 8 }, (_, g) =>
    Array.from({ length: 4 }, (_, i) => `@@GBSTEP ${g}.${i} 0 1 0 1.0 1.0\\n0\\n0\\n`).join(''),
  ).join('') + '@@GBEND\\n';

export const ATTACKS: Record<string, string> = {
  'records forged into the runner through /proc/$PPID/fd/1': `printf '${FORGED}' > /proc/$PPID/fd/1`,
  'records forged into the container init through /proc/1/fd/1': `printf '${FORGED}' > /proc/1/fd/1`,
  'records forged through every /proc/*/fd/1 it can open':
    `for f in /proc/[0-9]*/fd/[0-9]*; do printf ` + `'${FORGED}' > "$f"; done 2>/dev/null; true`,
  'garbage written to the channel': `printf 'garbage\\n' > /proc/$PPID/fd/1; printf 'garbage\\n' > /proc/1/fd/1; true`,
  'a flood without a newline, to the channel and to its own stdout':
    `head -c 30000000 /dev/zero | tr '\\0' x > ` + `/proc/1/fd/1; head -c 30000000 /dev/zero | tr '\\0' x`,
  'deleting the repository, so that the scorer has nothing to read': 'rm -rf "$PWD"',
  'killing the runner and the init': 'kill -9 $PPID 1; kill -9 -1; true',
  'reading the runner memory and tracing it':
    `cat /proc/$PPID/mem /proc/$PPID/environ /proc/1/environ >/dev/null; python3 -c 'import ` +
    `ctypes,sys; print(ctypes.CDLL(None).ptrace(16, int(sys.argv[1]), 0, 0))' $PPID; true`,
  'a detached process that does the task after the answer ended':
    `setsid sh -c 'for i in $(seq 200); do ${CHEAT.replace(/'/g, '"')} ` +
    `>/dev/null 2>&1; sleep 0.05; done' >/dev/null 2>&1 < /dev/null & true`,
  'core.fsmonitor running its program during git status': `${CHEAT_SCRIPT} && git config core.fsmonitor /tmp/cheat`,
  'a clean filter running its program during git status':
    `${CHEAT_SCRIPT} && git config filter.x.clean /tmp/cheat && echo 'tracked.txt filter=x' ` +
    `> .gitattributes && touch -d '2001-01-01' tracked.txt && git add .gitattributes`,
  // git status looks into a submodule's work tree with a git of the submodule's own, which reads the
  // submodule's configuration: a repository embedded in the work tree keeps its own .git directory.
  'a clean filter in an embedded repository, run by git status looking into it, that hides the file':
    `git init -q sub && cd sub && echo s > s.txt && echo 's.txt filter=x' > .gitattributes && git add -A && git ` +
    `commit -qm s && git config filter.x.clean "sh -c 'echo notes.txt >> ../.git/info/exclude; cat'" && touch ` +
    `-d 2001-01-01 s.txt && cd .. && git add sub 2>/dev/null && git commit -qm 'add notes'`,
  'a hook running its program during the look-ups':
    `${CHEAT_SCRIPT} && mkdir -p .git/hooks && for h in post-index-change ` +
    `reference-transaction post-checkout; do cp /tmp/cheat .git/hooks/$h; done`,
  'a hooks path of its own':
    `${CHEAT_SCRIPT} && mkdir -p /tmp/hooks && cp /tmp/cheat ` +
    `/tmp/hooks/post-index-change && git config core.hooksPath /tmp/hooks`,
  'a diff driver and textconv':
    `${CHEAT_SCRIPT} && git config diff.x.textconv /tmp/cheat && git config ` +
    `diff.external /tmp/cheat && echo 'notes.txt diff=x' > .git/info/attributes`,
  'pager and editor settings':
    `${CHEAT_SCRIPT} && git config core.pager /tmp/cheat && git config ` +
    `core.editor /tmp/cheat && git config pager.status /tmp/cheat`,
  'log and format settings, and a gpg program run for a signature, printing the expected subject':
    `${CHEAT_SCRIPT} && git config log.showSignature true && git config gpg.program /tmp/cheat ` +
    `&& git config format.pretty 'format:add notes' && git config i18n.logOutputEncoding ` +
    `UTF-16 && git config log.decorate full && git config status.showUntrackedFiles no`,
  'an alias and an include':
    `${CHEAT_SCRIPT} && git config alias.status '!/tmp/cheat' && printf ` +
    `'[status]\\n\\tshowUntrackedFiles = no\\n' > /tmp/inc && git config include.path /tmp/inc`,
  'status settings that hide the file, and a replace ref that shows the expected commit':
    `git config status.showUntrackedFiles no && ${FAKE_COMMIT} ` + `&& git replace HEAD "$fake"`,
  'local excludes (.git/info/exclude) that hide the file, and an empty commit with the message':
    `echo notes.txt >> .git/info/exclude && git ` + `commit -q --allow-empty -m 'add notes'`,
  'local attributes and alternates beside the excludes':
    `echo notes.txt >> .git/info/exclude && echo '* -diff' > .git/info/attributes && mkdir -p /tmp/alt ` +
    `&& echo /tmp/alt > .git/objects/info/alternates && git commit -q --allow-empty -m 'add notes'`,
  'grafts and an excludes file':
    `${FAKE_COMMIT} && echo "$fake" > .git/info/grafts && echo notes.txt > /tmp/x && git config ` +
    `core.excludesFile /tmp/x && git update-ref refs/replace/$(git rev-parse HEAD) "$fake"`,
  'a global configuration in HOME and in the pinned global file':
    `${CHEAT_SCRIPT} && printf '[core]\\n\\tfsmonitor = /tmp/cheat\\n[status]\\n\\tshowUntrackedFiles ` +
    `= no\\n' | tee ~/.gitconfig "$GIT_CONFIG_GLOBAL" > ` +
    `/dev/null && mkdir -p ~/.config/git && echo notes.txt > ~/.config/git/ignore`,
  'a git and an sh earlier in PATH and in HOME':
    `mkdir -p ~/bin && printf '#!/bin/sh\\necho "## main"\\necho add notes\\n' > ~/bin/git && chmod +x ` +
    `~/bin/git && cp ~/bin/git ~/bin/sh && cp ~/bin/git ./git && export PATH=~/bin:.:$PATH && git status`,
};
