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

/** The shell script; `$1` is the previous step's tree (empty at the start). */
export function repoStateScript(previousTree: string | null, diffBytes = DEFAULT_DIFF_BYTES): string {
  const prev = previousTree ?? '';
  return [
    'export GIT_OPTIONAL_LOCKS=0 GIT_PAGER=cat LC_ALL=C',
    `st=${REPO_STATE_DIR}; mkdir -p "$st/objects"`,
    `m() { printf '\\n${MARK}%s\\n' "$1"; }`,
    'gd=$(git rev-parse --absolute-git-dir 2>/dev/null) || { m nogit; exit 0; }',
    'm head; git rev-parse -q --verify HEAD 2>/dev/null',
    'm branch; git symbolic-ref -q --short HEAD 2>/dev/null',
    'm status; git status --porcelain=v1 2>/dev/null',
    'm ops',
    '[ -f "$gd/MERGE_HEAD" ] && echo merge',
    '[ -d "$gd/rebase-merge" ] && echo rebase',
    'if [ -d "$gd/rebase-apply" ]; then if [ -f "$gd/rebase-apply/applying" ]; then echo am; else echo rebase; fi; fi',
    '[ -f "$gd/CHERRY_PICK_HEAD" ] && echo cherry-pick',
    '[ -f "$gd/REVERT_HEAD" ] && echo revert',
    '[ -f "$gd/BISECT_LOG" ] && echo bisect',
    'm refs; git for-each-ref --format="%(objectname) %(refname)" 2>/dev/null',
    // The work tree as a tree object, in an object store of our own.
    'cd "$(git rev-parse --show-toplevel 2>/dev/null || pwd)"',
    'export GIT_OBJECT_DIRECTORY="$st/objects" GIT_ALTERNATE_OBJECT_DIRECTORIES="$gd/objects" GIT_INDEX_FILE="$st/index"',
    'if [ -f "$gd/index" ]; then cp "$gd/index" "$st/index"; else rm -f "$st/index"; fi',
    'tree=$(git add -A . >/dev/null 2>&1; git write-tree 2>/dev/null)',
    'm tree; echo "$tree"',
    `prev='${prev.replace(/[^0-9a-f]/g, '')}'`,
    'm diff',
    'if [ -n "$tree" ]; then',
    `  if [ -n "$prev" ]; then git diff --no-color --no-ext-diff "$prev" "$tree" > "$st/diff" 2>/dev/null; else : > "$st/diff"; fi`,
    '  wc -c < "$st/diff"',
    `  head -c ${diffBytes} "$st/diff"`,
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

const CONFLICT_CODES = new Set(['DD', 'AU', 'UD', 'UA', 'DU', 'AA', 'UU']);

/** Reads the script's output; null when the directory is no longer a repository. */
export function parseRepoState(
  stdout: string,
  previous: RepoSnapshot | null,
  diffBytes = DEFAULT_DIFF_BYTES,
): RepoSnapshot | null {
  const s = sections(stdout);
  if (s.has('nogit') || !s.has('head')) return null;
  const line = (name: string) => (s.get(name) ?? '').trim();
  let staged = 0;
  let unstaged = 0;
  let untracked = 0;
  let conflicted = 0;
  for (const l of (s.get('status') ?? '').split('\n')) {
    if (l.length < 3) continue;
    const xy = l.slice(0, 2);
    if (xy === '??') untracked++;
    else if (CONFLICT_CODES.has(xy)) conflicted++;
    else {
      if (xy[0] !== ' ' && xy[0] !== '!') staged++;
      if (xy[1] !== ' ' && xy[1] !== '!') unstaged++;
    }
  }
  const ops = line('ops')
    .split('\n')
    .map((o) => o.trim())
    .filter((o): o is (typeof REPO_OPERATIONS)[number] => (REPO_OPERATIONS as readonly string[]).includes(o));
  const refs = new Map<string, string>();
  for (const l of (s.get('refs') ?? '').split('\n')) {
    const m = /^([0-9a-f]{7,64}) (\S.*)$/.exec(l.trim());
    if (m) refs.set(m[2]!, m[1]!);
  }
  const head = line('head') || null;
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
      branch: line('branch') || null,
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
