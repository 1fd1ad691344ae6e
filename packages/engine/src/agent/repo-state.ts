import { capHeadTail, REPO_OPERATIONS, type RepoStepState } from '@gitbench/core';

/**
 * The repository's state after a step, read with ONE command in the attempt's session (a step costs
 * one round trip, not ten). The working tree and index are written as a tree object through a copy
 * of the index into an object directory outside the repository (the repository's own objects are
 * borrowed as an alternate), so the diff against the previous step covers staged, unstaged and
 * untracked changes and the agent's repository gains no objects, refs or index changes.
 */
export const REPO_STATE_DIR = '"${TMPDIR:-/tmp}/.gitbench-agent-state"';

const MARK = '@@gb:';

/** Bytes of the per-step diff kept (head and tail); its full size is recorded. */
export const DEFAULT_DIFF_BYTES = 64 * 1024;

/**
 * The shell script; the previous step's tree (empty at the start) is written into it. Every process it
 * starts is most of a step's sandbox time, so it starts as few as give the same state: one rev-parse
 * for the git directory and the work tree's top (after one config read that turns the model's filter
 * drivers off), one status (porcelain v2 with its branch headers: HEAD
 * and the branch come with it), for-each-ref, and for the tree a copy of the index, add and write-tree;
 * the diff only when the tree changed. The session's runner prints the same without the script
 * (packages/sandbox/runner/repo_state.py, Sandbox.readRepoState and, beside a third-party agent,
 * Sandbox.observeRepoState): a change here is made there too, and a test compares the two on the same
 * repositories. Every sandbox GitBench runs an agent in reads through the runner, which also sets empty
 * the filter keys of every submodule git looks into (found by the scorer's guard, lookup-config.py);
 * this script, which does not, runs only where a sandbox offers no runner's read (tests' fakes).
 */
export function repoStateScript(previousTree: string | null, diffBytes = DEFAULT_DIFF_BYTES): string {
  const prev = previousTree ?? '';
  return [
    'export GIT_OPTIONAL_LOCKS=0 GIT_PAGER=cat LC_ALL=C',
    // status and add hash changed files through the filter drivers the repository's attributes name, and
    // a driver is a program of the model's: every filter key is set empty, which runs none.
    'i=${GIT_CONFIG_COUNT:-0}',
    'while IFS= read -r k; do',
    '  [ -n "$k" ] || continue',
    '  export "GIT_CONFIG_KEY_$i=$k" "GIT_CONFIG_VALUE_$i="; i=$((i+1))',
    'done <<GBFILTERS',
    "$(git config --name-only --get-regexp '^filter\\.' 2>/dev/null)",
    'GBFILTERS',
    'export GIT_CONFIG_COUNT=$i',
    `st=${REPO_STATE_DIR}; [ -d "$st/objects" ] || mkdir -p "$st/objects"`,
    `m() { printf '\\n${MARK}%s\\n' "$1"; }`,
    "nl=$'\\n'",
    // A bare repository or a .git directory has no work tree: there --show-toplevel fails, and the top is here.
    'if loc=$(git rev-parse --absolute-git-dir --show-toplevel 2>/dev/null) && [ "${loc#*$nl}" != "$loc" ]; then',
    '  gd=${loc%%$nl*}; top=${loc#*$nl}',
    'else',
    '  gd=$(git rev-parse --absolute-git-dir 2>/dev/null) || { m nogit; exit 0; }; top=$PWD',
    'fi',
    'status=$(git status --porcelain=v2 --branch --no-ahead-behind 2>/dev/null)',
    'case $status in',
    '  "# branch.oid "*) m status; printf \'%s\\n\' "$status" ;;',
    // A status that failed still leaves HEAD and the branch to read.
    '  *) m head; git rev-parse -q --verify HEAD 2>/dev/null; ' +
      'm branch; git symbolic-ref -q --short HEAD 2>/dev/null ;;',
    'esac',
    'm ops',
    '[ -f "$gd/MERGE_HEAD" ] && echo merge',
    '[ -d "$gd/rebase-merge" ] && echo rebase',
    'if [ -d "$gd/rebase-apply" ]; then if [ -f "$gd/rebase-apply/applying" ]; then echo am; else echo rebase; fi; fi',
    '[ -f "$gd/CHERRY_PICK_HEAD" ] && echo cherry-pick',
    '[ -f "$gd/REVERT_HEAD" ] && echo revert',
    '[ -f "$gd/BISECT_LOG" ] && echo bisect',
    'm refs; git for-each-ref --format="%(objectname) %(refname)" 2>/dev/null',
    // The work tree as a tree object, in an object store of our own.
    'cd "$top"',
    'export GIT_OBJECT_DIRECTORY="$st/objects" ' +
      'GIT_ALTERNATE_OBJECT_DIRECTORIES="$gd/objects" GIT_INDEX_FILE="$st/index"',
    // The copy keeps the index's time: git trusts an entry whose file's time and size match it only when
    // the file is older than the index, and a file changed (same size) in the second the index was written
    // would pass for unchanged against a copy made later.
    'if [ -f "$gd/index" ]; then cp --preserve=timestamps "$gd/index" "$st/index"; else rm -f "$st/index"; fi',
    'tree=$(git add -A . >/dev/null 2>&1; git write-tree 2>/dev/null)',
    'm tree; echo "$tree"',
    `prev='${prev.replace(/[^0-9a-f]/g, '')}'`,
    'm diff',
    'if [ -n "$tree" ]; then',
    '  if [ -n "$prev" ] && [ "$prev" != "$tree" ]; then',
    // A moved submodule as its two commits: diff.submodule=diff would run a git diff in it.
    '    git diff --no-color --no-ext-diff --no-textconv --submodule=short "$prev" "$tree" > "$st/diff" 2>/dev/null',
    '    wc -c < "$st/diff"',
    `    head -c ${diffBytes} "$st/diff"`,
    '  else echo 0; fi',
    'fi',
    'true',
  ].join('\n');
}

export interface RepoSnapshot {
  state: RepoStepState;
  /** The work tree's tree id, diffed against at the next step. */
  tree: string | null;
  refs: Map<string, string>;
}

function sections(stdout: string): Map<string, string> {
  const out = new Map<string, string>();
  const parts = stdout.split(`\n${MARK}`);
  for (const part of parts.slice(1)) {
    const nl = part.indexOf('\n');
    const name = nl < 0 ? part : part.slice(0, nl);
    out.set(name.trim(), nl < 0 ? '' : part.slice(nl + 1));
  }
  return out;
}

/** HEAD, the branch and the change counts, from `git status --porcelain=v2 --branch` (its v1 codes are v2's XY). */
function readStatus(status: string) {
  let head: string | null = null;
  let branch: string | null = null;
  let staged = 0;
  let unstaged = 0;
  let untracked = 0;
  let conflicted = 0;
  for (const l of status.split('\n')) {
    if (l.startsWith('# branch.oid ')) head = l.slice(13).trim() === '(initial)' ? null : l.slice(13).trim() || null;
    else if (l.startsWith('# branch.head '))
      branch = l.slice(14).trim() === '(detached)' ? null : l.slice(14).trim() || null;
    else if (l.startsWith('? ')) untracked++;
    else if (l.startsWith('u ')) conflicted++;
    else if (l.startsWith('1 ') || l.startsWith('2 ')) {
      if (l[2] !== '.') staged++;
      if (l[3] !== '.') unstaged++;
    }
  }
  return { head, branch, staged, unstaged, untracked, conflicted };
}

/** Reads the script's output; null when the directory is no longer a repository. */
export function parseRepoState(
  stdout: string,
  previous: RepoSnapshot | null,
  diffBytes = DEFAULT_DIFF_BYTES,
): RepoSnapshot | null {
  const s = sections(stdout);
  if (s.has('nogit') || !(s.has('status') || s.has('head'))) return null;
  const line = (name: string) => (s.get(name) ?? '').trim();
  // Without a status (it failed), HEAD and the branch were read alone and no change is counted.
  const { head, branch, staged, unstaged, untracked, conflicted } = s.has('status')
    ? readStatus(s.get('status')!)
    : {
        head: line('head') || null,
        branch: line('branch') || null,
        staged: 0,
        unstaged: 0,
        untracked: 0,
        conflicted: 0,
      };
  const ops = line('ops')
    .split('\n')
    .map((o) => o.trim())
    .filter((o): o is (typeof REPO_OPERATIONS)[number] => (REPO_OPERATIONS as readonly string[]).includes(o));
  const refs = new Map<string, string>();
  for (const l of (s.get('refs') ?? '').split('\n')) {
    const m = /^([0-9a-f]{7,64}) (\S.*)$/.exec(l.trim());
    if (m) refs.set(m[2]!, m[1]!);
  }
  refs.set('HEAD', head ?? '');
  const refsChanged: RepoStepState['refsChanged'] = [];
  if (previous) {
    for (const [ref, after] of refs) {
      const before = previous.refs.get(ref) ?? null;
      if (before !== after) refsChanged.push({ ref, before: before || null, after: after || null });
    }
    for (const [ref, before] of previous.refs) {
      if (!refs.has(ref)) refsChanged.push({ ref, before: before || null, after: null });
    }
  }
  const tree = line('tree') || null;
  const diffSection = s.get('diff') ?? '';
  const nl = diffSection.indexOf('\n');
  const total = nl < 0 ? 0 : Number(diffSection.slice(0, nl).trim()) || 0;
  const kept = nl < 0 ? '' : diffSection.slice(nl + 1);
  const shown =
    total > diffBytes
      ? capHeadTail(kept, diffBytes).text + `\n[... diff cut: ${total - diffBytes} more bytes ...]`
      : kept;
  return {
    tree,
    refs,
    state: {
      head,
      branch,
      staged,
      unstaged,
      untracked,
      conflicted,
      operations: [...new Set(ops)],
      refsChanged,
      diff: shown,
      diffBytes: total,
      diffTruncatedBytes: Math.max(0, total - diffBytes),
    },
  };
}
