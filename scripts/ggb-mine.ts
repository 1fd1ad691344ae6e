/**
 * Mines GitGoodBench scenarios (merge conflict resolution, interactive rebase, iterative committing of
 * changes) from local mirrors of permissively licensed repositories, the way the paper describes
 * (remerge conflicts of two-parent merges; file-commit chains of 3 to 6 consecutive commits touching
 * one file), and writes the compact suite under fixtures/ggb/.
 *
 *   npx tsx scripts/ggb-mine.ts [--out fixtures/ggb] [--sources scripts/ggb-sources.json]
 *
 * Each scenario keeps only the history it needs: its commits are re-created (same message, author,
 * committer and dates; the tree cut down to the paths the scenario touches) and written as a git
 * bundle; the original commit ids are recorded beside them. Deterministic: the same mirrors give the
 * same bundles, the same commit ids and the same YAML on every run.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { stringify } from 'yaml';
import { HISTORY_LOG_ARGS, parseHistory, type HistoryCommit } from '../packages/core/src/families/ggb/history';
import { parseFileDiff, renderHunks } from '../packages/core/src/families/ggb/hunks';
import { lineEnding, splitLines, withEnding } from '../packages/core/src/families/ggb/tools/common';
import { conflictsInText } from '../packages/core/src/families/ggb/tools/mcr';
import { shellQuote } from '../packages/core/src/shell-quote';
import {
  bundle,
  changedPaths,
  commitMeta,
  git,
  gitBuf,
  recreate,
  restrictedTree,
  scratchRepo,
  treeBytes,
} from './lib/history-mining';
import { iccReferenceCalls, type ToolCall } from './lib/ggb-icc-reference';

interface Source {
  /** owner/name on GitHub */
  repo: string;
  mirror: string;
  licence: string;
  language: 'python' | 'java' | 'kotlin';
  /** The ref whose history is mined. */
  ref: string;
  short: string;
  /** How many scenarios to take per band (newest history first). */
  mcr: Record<McrBand, number>;
  fcc: Record<ChainBand, number>;
}

const LANG_EXT: Record<string, string[]> = { python: ['.py'], java: ['.java', '.kt'], kotlin: ['.kt', '.java'] };
const CODE_EXT = ['.py', '.java', '.kt'];
const MAX_CONFLICTS = 8;
const MAX_SCENARIO_BYTES = 400_000;
const MAX_PATHS = 40;

const isCode = (p: string, exts = CODE_EXT) => exts.some((e) => p.endsWith(e));

// ---------------------------------------------------------------------------------------------------
// Merge conflict resolution

interface MergeConflictInfo {
  conflicts: number;
  files: string[];
  tree: string;
}

/** Re-merges two commits in memory; null when it is clean or has a conflict we do not support. */
function remerge(repo: string, ours: string, theirs: string, exts: string[]): MergeConflictInfo | null {
  const out = git(repo, ['merge-tree', '--write-tree', '--no-messages', '-z', ours, theirs], { allowFail: true });
  if (!out.startsWith('\u0000EXIT1\u0000')) return null;
  const body = out.slice('\u0000EXIT1\u0000'.length);
  const parts = body.split('\0').filter(Boolean);
  const tree = parts[0]!;
  const stages = new Map<string, Set<string>>();
  for (const entry of parts.slice(1)) {
    const m = /^(\d+) ([0-9a-f]+) (\d)\t(.*)$/.exec(entry);
    if (!m) continue;
    const set = stages.get(m[4]!) ?? new Set<string>();
    set.add(m[3]!);
    stages.set(m[4]!, set);
  }
  if (stages.size === 0) return null;
  let conflicts = 0;
  for (const [path, s] of stages) {
    // Only content conflicts (both sides modified a file of the base) in a supported language.
    if (!(s.has('1') && s.has('2') && s.has('3')) || !isCode(path, exts)) return null;
    const text = git(repo, ['cat-file', 'blob', `${tree}:${path}`]);
    const n = text.split('\n').filter((l) => l.startsWith('<<<<<<< ')).length;
    if (n === 0) return null;
    conflicts += n;
  }
  return { conflicts, files: [...stages.keys()].sort(), tree };
}

export type McrBand = 'easy' | 'medium' | 'hard';
const mcrBand = (conflicts: number, files: number): McrBand =>
  conflicts === 1 ? 'easy' : files === 1 ? 'medium' : 'hard';

interface McrScenario {
  id: string;
  band: McrBand;
  source: Source;
  original: { merge: string; ours: string; theirs: string; base: string };
  rewritten: { merge: string; ours: string; theirs: string; base: string; mergeTree: string };
  conflicts: number;
  files: string[];
  /** base64 of the binary patch from the local side to the merge commit, over the conflicted files. */
  resolution: string;
  wrongSide: 'ours' | 'theirs';
  messages: { ours: string; theirs: string; merge: string };
  dates: { ours: string; theirs: string };
  /** The single-answer prompt: its markers name the incoming commit by id, as the miner's merge of it wrote them. */
  prompt: string;
  /** The agent's prompt: its markers read `HEAD` and `incoming`, as in the sandbox and every ggb-mcr tool view. */
  agentPrompt: string;
  /**
   * The resolution through the ggb-mcr tools, when the merged files read as the conflicted ones with each block
   * replaced.
   */
  referenceCalls?: ToolCall[] | null;
}

function mineMerges(
  src: Source,
  scratch: string,
  quota: Record<McrBand, number>,
  outDir: string,
  start: number,
): McrScenario[] {
  const want = Object.values(quota).reduce((a, b) => a + b, 0);
  const repo = src.mirror;
  const exts = LANG_EXT[src.language]!;
  const lines = git(repo, ['rev-list', '--merges', '--parents', '--date-order', src.ref]).split('\n').filter(Boolean);
  const byBand: Record<McrBand, McrScenario[]> = { easy: [], medium: [], hard: [] };
  let scanned = 0;
  for (const line of lines) {
    if (Object.values(byBand).flat().length >= want) break;
    if (scanned++ > 6000) break;
    const [merge, ours, theirs, ...more] = line.split(' ');
    if (!merge || !ours || !theirs || more.length > 0) continue;
    const basesOut = git(repo, ['merge-base', '--all', ours, theirs], { allowFail: true });
    if (basesOut.startsWith('\u0000EXIT')) continue;
    const bases = basesOut.split('\n').filter(Boolean);
    if (bases.length !== 1) continue;
    const base = bases[0]!;
    const info = remerge(repo, ours, theirs, exts);
    if (!info || info.conflicts > MAX_CONFLICTS) continue;
    const band = mcrBand(info.conflicts, info.files.length);
    if (byBand[band].length >= quota[band]) continue;
    // No change outside the conflicted files: the resolution is exactly what the conflicts ask for.
    const extra = changedPaths(repo, info.tree, merge).filter((p) => !info.files.includes(p));
    if (extra.length > 0) continue;
    const paths = [
      ...new Set([
        ...changedPaths(repo, base, ours),
        ...changedPaths(repo, base, theirs),
        ...changedPaths(repo, base, merge),
      ]),
    ].sort();
    if (paths.length > MAX_PATHS) continue;
    const bytes = Math.max(
      treeBytes(repo, base, paths),
      treeBytes(repo, ours, paths),
      treeBytes(repo, theirs, paths),
      treeBytes(repo, merge, paths),
    );
    if (bytes > MAX_SCENARIO_BYTES) continue;
    let resolvedHasMarkers = false;
    for (const f of info.files)
      if (/^<<<<<<< /m.test(git(repo, ['cat-file', 'blob', `${merge}:${f}`]))) resolvedHasMarkers = true;
    if (resolvedHasMarkers) continue;

    const metas = {
      base: commitMeta(repo, base),
      ours: commitMeta(repo, ours),
      theirs: commitMeta(repo, theirs),
      merge: commitMeta(repo, merge),
    };
    const b = recreate(scratch, metas.base, restrictedTree(scratch, base, paths), []);
    const o = recreate(scratch, metas.ours, restrictedTree(scratch, ours, paths), [b]);
    const t = recreate(scratch, metas.theirs, restrictedTree(scratch, theirs, paths), [b]);
    const mTree = restrictedTree(scratch, merge, paths);
    const m = recreate(scratch, metas.merge, mTree, [o, t]);
    // The compact history must conflict exactly as the original does, and be resolved by the same files.
    const again = remerge(scratch, o, t, exts);
    if (!again || again.conflicts !== info.conflicts || again.files.join('\n') !== info.files.join('\n')) continue;
    if (changedPaths(scratch, again.tree, m).some((p) => !info.files.includes(p))) continue;
    // A wrong answer: the side whose version is not the real resolution for at least one file.
    const differs = (rev: string) =>
      info.files.some(
        (f) => git(scratch, ['rev-parse', `${rev}:${f}`]).trim() !== git(scratch, ['rev-parse', `${m}:${f}`]).trim(),
      );
    const wrongSide: 'ours' | 'theirs' = differs(o) ? 'ours' : 'theirs';
    if (!differs(wrongSide === 'ours' ? o : t)) continue;

    const index = start + Object.values(byBand).flat().length;
    const id = `${src.short}-m${String(index).padStart(2, '0')}`;
    bundle(
      scratch,
      { 'refs/heads/main': o, 'refs/heads/incoming': t },
      join(outDir, '_assets', 'bundles', `${id}.bundle`),
    );
    // The merge commit alone (its parents are prerequisites), for the scorer only.
    git(scratch, ['update-ref', 'refs/ggb/merge', m]);
    git(scratch, [
      'bundle',
      'create',
      '-q',
      join(outDir, '_assets', 'merges', `${id}.bundle`),
      'refs/ggb/merge',
      `^${o}`,
      `^${t}`,
    ]);
    git(scratch, ['update-ref', '-d', 'refs/ggb/merge']);
    const resolution = gitBuf(scratch, ['diff', '--binary', '--full-index', o, m, '--', ...info.files]).toString(
      'base64',
    );
    const scenario: McrScenario = {
      id,
      band,
      source: src,
      original: { merge, ours, theirs, base },
      rewritten: { merge: m, ours: o, theirs: t, base: b, mergeTree: mTree },
      conflicts: info.conflicts,
      files: info.files,
      resolution,
      wrongSide,
      messages: {
        ours: metas.ours.message.trim(),
        theirs: metas.theirs.message.trim(),
        merge: metas.merge.message.trim(),
      },
      dates: { ours: isoDate(metas.ours.committerDate), theirs: isoDate(metas.theirs.committerDate) },
      prompt: '',
      agentPrompt: '',
    };
    const texts = conflictedTexts(scratch, o, t, info.files);
    scenario.prompt = mcrPrompt(scenario, conflictBlocks(texts));
    scenario.agentPrompt = mcrPrompt(
      scenario,
      conflictBlocks(texts).map((b) => ({ ...b, text: b.text.replaceAll(`\n>>>>>>> ${t}`, '\n>>>>>>> incoming') })),
    );
    scenario.referenceCalls = mcrReferenceCalls(
      texts,
      Object.fromEntries(info.files.map((f) => [f, git(scratch, ['cat-file', 'blob', `${m}:${f}`])])),
    );
    byBand[band].push(scenario);
    process.stderr.write(
      `  mcr ${id}: ${band} ${info.conflicts} conflict(s) in ${info.files.length} file(s) (${merge.slice(0, 10)})\n`,
    );
  }
  return Object.values(byBand).flat();
}

function isoDate(gitDate: string): string {
  const [secs] = gitDate.split(' ');
  return new Date(Number(secs) * 1000).toISOString().replace('.000Z', 'Z');
}

/**
 * The conflicted files after merging the incoming commit by its id: the sandbox merges the branch
 * `incoming`, so only the `>>>>>>>` label differs from what the agent sees there.
 */
function conflictedTexts(scratch: string, ours: string, theirs: string, files: string[]): Record<string, string> {
  const wt = mkdtempSync(join(tmpdir(), 'ggb-wt-'));
  try {
    git(scratch, ['worktree', 'add', '-q', '--detach', wt, ours]);
    git(wt, ['merge', '--no-ff', '--no-edit', theirs], { allowFail: true, env: { GIT_MERGE_AUTOEDIT: 'no' } });
    return Object.fromEntries(files.map((f) => [f, readFileSync(join(wt, f), 'utf8')]));
  } finally {
    git(scratch, ['worktree', 'remove', '--force', wt], { allowFail: true });
    rmSync(wt, { recursive: true, force: true });
  }
}

function conflictBlocks(texts: Record<string, string>): { file: string; text: string }[] {
  return Object.entries(texts).flatMap(([file, text]) =>
    conflictsInText(file, text).map((c) => ({ file, text: c.lines.join('').replace(/\r?\n$/, '') })),
  );
}

/**
 * The real resolution as calls of the ggb-mcr tools (for the oracle agent): the merged file must be the
 * conflicted file with each conflict block replaced by some text; null when it cannot be read that way.
 */
function mcrReferenceCalls(texts: Record<string, string>, merged: Record<string, string>): ToolCall[] | null {
  const calls: ToolCall[] = [];
  for (const [file, text] of Object.entries(texts)) {
    const lines = splitLines(text);
    const blocks = conflictsInText(file, text);
    const between: string[] = [];
    let at = 0;
    for (const b of blocks) {
      between.push(lines.slice(at, b.startLine - 1).join(''));
      at = b.endLine;
    }
    between.push(lines.slice(at).join(''));
    const target = merged[file]!;
    if (!target.startsWith(between[0]!)) return null;
    let pos = between[0]!.length;
    const resolutions: string[] = [];
    for (let i = 1; i < between.length; i++) {
      const seg = between[i]!;
      const found = i === between.length - 1 ? target.length - seg.length : target.indexOf(seg, pos);
      if (found < pos || target.slice(found, found + seg.length) !== seg) return null;
      resolutions.push(target.slice(pos, found));
      pos = found + seg.length;
    }
    if (pos !== target.length || between.map((b, i) => b + (resolutions[i] ?? '')).join('') !== target) return null;
    // The tool writes content with the file's line ending: a resolution in another ending would change.
    if (resolutions.some((r) => r !== withEnding(r, lineEnding(text)))) return null;
    for (const content of resolutions)
      calls.push({
        name: 'resolve_current_merge_conflict_with',
        args: { content, reason: 'reproduce the real merge commit' },
      });
  }
  return calls;
}

function mcrPrompt(s: McrScenario, blocks: { file: string; text: string }[]): string {
  const lang = s.source.language === 'python' ? 'Python' : s.source.language === 'java' ? 'Java' : 'Kotlin';
  return [
    `You are a staff software engineer with expertise in ${lang} and git.`,
    '',
    'You are helping a junior team member who has initiated a merge that resulted in one or more merge',
    `conflicts in one or more files. Your task is to help your junior colleague with resolving all ${s.conflicts}`,
    'merge conflicts, then commit the merge.',
    '',
    'The semantic meaning and temporal relationship of the two sides of the merge conflicts are as follows for',
    'ALL merge conflicts you will encounter:',
    `- HEAD (branch main, local changes), last committed ${s.dates.ours}: ${firstLine(s.messages.ours)}`,
    `- incoming (the branch being merged, incoming changes), last ` +
      `committed ${s.dates.theirs}: ${firstLine(s.messages.theirs)}`,
    '',
    'The following files have merge conflicts:',
    ...s.files.map((f) => `- ${f}`),
    '',
    'Below are all merge conflicts that need to be resolved, delimited by <CONFLICT-i> tags where i is the',
    '0-based index:',
    ...blocks.flatMap((b, i) => [`<CONFLICT-${i}> (${b.file})`, b.text, `</CONFLICT-${i}>`]),
    '',
    'Resolve the conflicts cohesively; if you only choose one side, reproduce its whitespace exactly. The intent',
    'of the developer is to merge the incoming changes into the local changes. The task is done when no file is',
    'left unmerged and the merge is committed.',
  ].join('\n');
}

const firstLine = (msg: string) => msg.split('\n')[0]!.trim();

// ---------------------------------------------------------------------------------------------------
// File-commit chains (interactive rebase and iterative committing of changes)

export type ChainBand = 'short' | 'medium' | 'long';
const chainBand = (length: number): ChainBand => (length <= 3 ? 'short' : length === 4 ? 'medium' : 'long');

interface Chain {
  id: string;
  band: ChainBand;
  source: Source;
  file: string;
  original: { base: string; commits: string[] };
  rewritten: { base: string; commits: string[] };
  purity: number;
  /** The histories the judge compares: IR over every file, ICC restricted to the target file. */
  irHistory: HistoryCommit[];
  iccHistory: HistoryCommit[];
  /** Per commit, the target file's patch (ICC reference) as base64. */
  iccPatches: { message: string; patch: string }[];
  finalBlob: string;
  messages: string[];
  /** Every commit's full change, for the IR prompt (the paper shows them all). */
  irShows: string[];
  /** The target file's hunks, numbered from 1, for the ICC prompt. */
  iccHunks: string;
  iccCalls: ToolCall[] | null;
}

function mineChains(
  src: Source,
  scratch: string,
  quota: Record<ChainBand, number>,
  outDir: string,
  start: number,
): Chain[] {
  const want = Object.values(quota).reduce((a, b) => a + b, 0);
  const repo = src.mirror;
  const exts = LANG_EXT[src.language]!;
  const log = git(repo, ['log', '--first-parent', '--format=@%H %P', '--name-status', '--no-renames', src.ref]);
  const commits: { id: string; merge: boolean; files: Map<string, string> }[] = [];
  for (const block of log.split('\n@').map((b) => b.replace(/^@/, ''))) {
    const [head, ...rest] = block.split('\n');
    const [id, ...parents] = head!.trim().split(' ');
    const files = new Map<string, string>();
    for (const l of rest) {
      const m = /^([AMD])\t(.*)$/.exec(l);
      if (m) files.set(m[2]!, m[1]!);
    }
    commits.push({ id: id!, merge: parents.length !== 1, files });
  }
  commits.reverse(); // oldest first
  const byBand: Record<ChainBand, Chain[]> = { short: [], medium: [], long: [] };
  const used = new Set<string>();
  // Newest history first: walk backwards over runs.
  for (let end = commits.length - 1; end >= 1; end--) {
    if (Object.values(byBand).flat().length >= want) break;
    const last = commits[end]!;
    if (last.merge || used.has(last.id)) continue;
    for (const [file, status] of last.files) {
      if (status !== 'M' || !isCode(file, exts)) continue;
      let begin = end;
      while (
        begin - 1 >= 0 &&
        !commits[begin - 1]!.merge &&
        commits[begin - 1]!.files.get(file) === 'M' &&
        end - begin + 1 < 6
      )
        begin--;
      const length = end - begin + 1;
      if (length < 3) continue;
      // A maximal run only: the commit before it must not touch the file too.
      if (begin - 1 >= 0 && commits[begin - 1]!.files.has(file) && !commits[begin - 1]!.merge) continue;
      const band = chainBand(length);
      if (byBand[band].length >= quota[band]) continue;
      const chain = commits.slice(begin, end + 1);
      if (chain.some((c) => used.has(c.id) || c.files.size > 6)) continue;
      const base = commitMeta(repo, chain[0]!.id).parents[0]!;
      const paths = [...new Set(chain.flatMap((c) => [...c.files.keys()]))].sort();
      if (treeBytes(repo, chain.at(-1)!.id, paths) > MAX_SCENARIO_BYTES) continue;
      const stat = git(repo, ['diff', '--numstat', base, chain.at(-1)!.id, '--', ...paths]);
      let total = 0;
      let inFile = 0;
      for (const l of stat.split('\n').filter(Boolean)) {
        const [a, d, p] = l.split('\t');
        const n = (Number(a) || 0) + (Number(d) || 0);
        total += n;
        if (p === file) inFile += n;
      }
      if (total === 0 || total > 400 || inFile < 4) continue;
      // Each commit's own change to the file must survive to the end (a chain that reverts itself
      // leaves nothing to commit).
      let b = recreate(scratch, commitMeta(repo, base), restrictedTree(scratch, base, paths), []);
      const rewrittenBase = b;
      const rewritten: string[] = [];
      for (const c of chain) {
        b = recreate(scratch, commitMeta(repo, c.id), restrictedTree(scratch, c.id, paths), [b]);
        rewritten.push(b);
      }
      const tip = rewritten.at(-1)!;
      const hunks = git(scratch, ['diff', '-U3', rewrittenBase, tip, '--', file])
        .split('\n')
        .filter((l) => l.startsWith('@@')).length;
      if (hunks < 2) continue;
      const index = start + Object.values(byBand).flat().length;
      const id = `${src.short}-c${String(index).padStart(2, '0')}`;
      bundle(scratch, { 'refs/heads/main': tip }, join(outDir, '_assets', 'bundles', `${id}.bundle`));
      const messages = chain.map((c) => commitMeta(repo, c.id).message);
      const iccPatches = rewritten.map((r, i) => ({
        message: messages[i]!,
        patch: gitBuf(scratch, [
          'diff',
          '--binary',
          '--full-index',
          i === 0 ? rewrittenBase : rewritten[i - 1]!,
          r,
          '--',
          file,
        ]).toString('base64'),
      }));
      const scenario: Chain = {
        id,
        band,
        source: src,
        file,
        original: { base, commits: chain.map((c) => c.id) },
        rewritten: { base: rewrittenBase, commits: rewritten },
        purity: Math.round((inFile / total) * 100) / 100,
        irHistory: parseHistory(git(scratch, [...HISTORY_LOG_ARGS, `${rewrittenBase}..${tip}`])),
        iccHistory: parseHistory(git(scratch, [...HISTORY_LOG_ARGS, `${rewrittenBase}..${tip}`, '--', file])),
        iccPatches,
        finalBlob: git(scratch, ['rev-parse', `${tip}:${file}`]).trim(),
        messages,
        irShows: rewritten.map((r) =>
          git(scratch, ['show', '--no-color', '--format=commit %h%nAuthor: %an%nDate:   %ad%n%n%B', r]),
        ),
        iccHunks: renderHunks(
          parseFileDiff(git(scratch, ['diff', '--no-color', rewrittenBase, tip, '--', file]))?.hunks ?? [],
        ),
        iccCalls: iccReferenceCalls(scratch, rewrittenBase, rewritten, file, messages),
      };
      for (const c of chain) used.add(c.id);
      byBand[band].push(scenario);
      process.stderr.write(`  fcc ${id}: ${band} ${length} commits on ${file} (${chain.at(-1)!.id.slice(0, 10)})\n`);
      break;
    }
  }
  return Object.values(byBand).flat();
}

// ---------------------------------------------------------------------------------------------------
// Fixture files

const b64 = (s: string) => Buffer.from(s, 'utf8').toString('base64');
const sh = shellQuote;

function fetchStep(id: string): string[] {
  return [
    // Every ref of the bundle becomes a branch; the bundle file itself does not stay in the repository.
    `git init -q && git fetch -q --update-head-ok .ggb.bundle 'refs/heads/*:refs/heads/*' ` +
      `&& rm -f .ggb.bundle .git/FETCH_HEAD && git reset -q --hard main`,
  ].map((s) => s.replace('__ID__', id));
}

function sourceBlock(
  s: Source,
  commits: Record<string, string | string[]>,
  rewritten: Record<string, string | string[]>,
) {
  return { repository: `https://github.com/${s.repo}`, licence: s.licence, language: s.language, commits, rewritten };
}

function mcrFixture(s: McrScenario): Record<string, unknown> {
  // The real resolution as a patch from the local side (small, unlike the whole files).
  const files = s.files.map(sh).join(' ');
  const apply = s.resolution === '' ? [] : [`printf '%s' ${s.resolution} | base64 -d | git apply`];
  const reference = [
    `git checkout --ours -- ${files}`,
    ...apply,
    `git add -- ${files}`,
    'git commit -q --no-edit',
  ].join(' && ');
  return {
    id: s.id,
    description:
      `Merge conflict resolution: ${s.conflicts} conflict(s) ` +
      `in ${s.files.length} file(s) of ${s.source.repo} (${s.band})`,
    purpose: 'Reproduce the real merge commit by resolving every conflict of the re-merge (GitGoodBench MCR).',
    difficulty: s.band,
    tags: ['ggb', 'ggb-mcr', `band-${s.band}`, s.source.language],
    files: [{ asset: `_assets/bundles/${s.id}.bundle`, to: '.ggb.bundle' }],
    assets: [`_assets/merges/${s.id}.bundle`],
    setup: [...fetchStep(s.id), 'git merge --no-ff --no-edit incoming'],
    context: ['git status --short'],
    prompt:
      `${s.prompt}\n\nAnswer with a bash script, run from the repository ` +
      `root, that resolves the conflicts and commits the merge.`,
    agent: { prompt: s.agentPrompt, tool_set: 'ggb-mcr', scored_on: 'repository' },
    expected: reference,
    scoring: {
      type: 'ggb_mcr',
      merge_commit: s.rewritten.merge,
      merge_tree: s.rewritten.mergeTree,
      merge_bundle: `_assets/merges/${s.id}.bundle`,
      conflicts: s.conflicts,
      files: s.files,
      band: s.band,
      source: sourceBlock(s.source, s.original, {
        base: s.rewritten.base,
        ours: s.rewritten.ours,
        theirs: s.rewritten.theirs,
        merge: s.rewritten.merge,
      }),
      ...(s.referenceCalls ? { reference_tool_calls: s.referenceCalls } : {}),
    },
    negatives: [
      { answer: 'true', why: 'nop: the merge is left with unmerged files.' },
      {
        answer:
          `git checkout --${s.wrongSide} -- ${s.files.map(sh).join(' ')} ` + `&& git add -A && git commit -q --no-edit`,
        why: `Keeping only the ${s.wrongSide === 'ours' ? 'local' : 'incoming'} side is not the real resolution.`,
      },
    ],
  };
}

function irPrompt(c: Chain): string {
  return [
    `You are a staff software engineer with expertise in ${langName(c.source.language)} and Git.`,
    'You are helping a junior team member who has been committing all day without pushing their commits to the',
    'remote. Help them perform an interactive rebase to clean up their local tree. The rebase has already been',
    'initiated for you and is currently paused (a `break` at the top of the todo list) so that you can inspect the',
    'commits participating in the rebase and edit the rebase todo list.',
    '',
    'The commits involved in the rebase are listed below, oldest first. When referring to them, COMMIT-i is the i-th',
    'pick of the todo list, counted from 0:',
    ...c.irShows.flatMap((show, i) => [`<COMMIT-${i}>`, show.replace(/\n+$/, ''), `</COMMIT-${i}>`]),
    '',
    'Make the local tree contain logically cohesive commits with meaningful, descriptive commit messages in a',
    'unified format, no duplicate commit messages, following best practices for maintainable code. Do not simply',
    `pick every commit unchanged and do not squash everything into one ` +
      `commit; aim for fewer than ${c.rewritten.commits.length} commits.`,
    'The task is done when the rebase has finished (no rebase in progress).',
  ].join('\n');
}

const langName = (l: string) => (l === 'python' ? 'Python' : l === 'java' ? 'Java' : 'Kotlin');

function irFixture(c: Chain): Record<string, unknown> {
  const id = c.id.replace('-c', '-ir');
  const n = c.rewritten.commits.length;
  return {
    id,
    description: `Interactive rebase of a ${n}-commit chain on ${c.file} in ${c.source.repo} (${c.band})`,
    purpose: 'Rewrite a real file-commit chain into a better history with an interactive rebase (GitGoodBench IR).',
    difficulty: c.band === 'short' ? 'easy' : c.band === 'medium' ? 'medium' : 'hard',
    tags: ['ggb', 'ggb-ir', `band-${c.band}`, c.source.language],
    files: [{ asset: `_assets/bundles/${c.id}.bundle`, to: '.ggb.bundle' }],
    setup: [
      ...fetchStep(c.id),
      'git config core.editor true',
      `GIT_SEQUENCE_EDITOR="sed -i '1i break'" git rebase -i main~${n}`,
    ],
    context: ['cat .git/rebase-merge/git-rebase-todo'],
    prompt:
      `${irPrompt(c)}\n\nAnswer with a bash script, run from the repository root, that finishes the rebase ` +
      `(GIT_SEQUENCE_EDITOR and GIT_EDITOR are \`true\`; edit .git/rebase-merge/git-rebase-todo directly).`,
    agent: { prompt: irPrompt(c), tool_set: 'ggb-ir', scored_on: 'repository' },
    expected: 'git rebase --continue',
    scoring: {
      type: 'ggb_ir',
      base: c.rewritten.base,
      band: c.band,
      chain_length: n,
      original_history: c.irHistory,
      source: sourceBlock(c.source, c.original, c.rewritten),
      reference_tool_calls: [{ name: 'execute_rebase', args: { reason: 'keep the original history' } }],
    },
    negatives: [
      { answer: 'true', why: 'nop: the rebase is still in progress.' },
      {
        answer: `git rebase --abort && git reset -q --soft HEAD~${n} && git commit -q -m wip`,
        why: 'One commit named "wip" for the whole chain loses to the original history.',
      },
    ],
  };
}

function iccPrompt(c: Chain): string {
  return [
    `You are a staff software engineer with expertise in ${langName(c.source.language)} and Git.`,
    'You are helping a junior team member who has been working all day without creating a commit to iteratively',
    'create commits and introduce their changes into the repository in a maintainable way. Help them select hunks',
    'so that you create multiple, small, but logically cohesive commits that are structurally sound and follow best',
    'practices for maintainable code.',
    '',
    `Commit the changes to ${c.file} as a sequence of commits; changes to other files may go into a last commit.`,
    'Avoid committing all changes in a single commit. The task is done when every change is committed.',
    '',
    `The hunks of ${c.file}, numbered from 1:`,
    c.iccHunks,
  ].join('\n');
}

function iccFixture(c: Chain): Record<string, unknown> {
  const id = c.id.replace('-c', '-icc');
  const n = c.rewritten.commits.length;
  const reference = [
    ...c.iccPatches.map(
      (p) =>
        `printf '%s' ${p.patch} | base64 -d | git apply --cached && ` +
        `printf '%s' ${b64(p.message)} | base64 -d | git commit -q -F -`,
    ),
    'git add -A && { git diff --cached --quiet || git commit -q -m "Remaining changes outside the target file"; }',
  ].join('\n');
  return {
    id,
    description: `Iterative committing of a ${n}-commit chain's changes to ${c.file} in ${c.source.repo} (${c.band})`,
    purpose: 'Commit one unorganised change as a sequence of cohesive commits (GitGoodBench ICC).',
    difficulty: c.band === 'short' ? 'easy' : c.band === 'medium' ? 'medium' : 'hard',
    tags: ['ggb', 'ggb-icc', `band-${c.band}`, c.source.language],
    files: [{ asset: `_assets/bundles/${c.id}.bundle`, to: '.ggb.bundle' }],
    setup: [
      ...fetchStep(c.id),
      // The chain's changes, undone into the working tree as one change; the original commits are gone.
      `git reset -q main~${n} && rm -f .git/ORIG_HEAD && git reflog expire --expire=now --all && git gc -q --prune=now`,
      // The ICC tools read the target file from here (one registered tool set serves every scenario).
      `git config ggb.targetFile ${sh(c.file)}`,
    ],
    context: ['git status --short'],
    prompt: `${iccPrompt(c)}\n\nAnswer with a bash script, run from the repository root, that makes the commits.`,
    agent: { prompt: iccPrompt(c), tool_set: 'ggb-icc', scored_on: 'repository' },
    expected: reference,
    scoring: {
      type: 'ggb_icc',
      base: c.rewritten.base,
      target_file: c.file,
      final_blob: c.finalBlob,
      band: c.band,
      chain_length: n,
      original_history: c.iccHistory,
      source: sourceBlock(c.source, c.original, c.rewritten),
      ...(c.iccCalls ? { reference_tool_calls: c.iccCalls } : {}),
    },
    negatives: [
      { answer: 'true', why: 'nop: nothing is committed.' },
      {
        answer: 'git add -A && git commit -q -m wip',
        why: 'One commit named "wip" for every change loses to the original history.',
      },
    ],
  };
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
  const out = resolve(flag('out', 'fixtures/ggb'));
  const sources = JSON.parse(readFileSync(flag('sources', 'scripts/ggb-sources.json'), 'utf8')) as Source[];
  for (const d of ['mcr', 'ir', 'icc']) {
    mkdirSync(join(out, d), { recursive: true });
    for (const f of readdirSync(join(out, d))) if (f.endsWith('.yaml')) rmSync(join(out, d, f));
  }
  for (const d of ['bundles', 'merges']) {
    rmSync(join(out, '_assets', d), { recursive: true, force: true });
    mkdirSync(join(out, '_assets', d), { recursive: true });
  }
  const rows: string[] = [];
  for (const src of sources) {
    process.stderr.write(`${src.repo}\n`);
    const scratch = scratchRepo(src.mirror);
    try {
      const merges = mineMerges(src, scratch, src.mcr, out, 1);
      const chains = mineChains(src, scratch, src.fcc, out, 1);
      for (const m of merges) writeYaml(join(out, 'mcr', `${m.id}.yaml`), mcrFixture(m));
      for (const c of chains) {
        writeYaml(join(out, 'ir', `${c.id.replace('-c', '-ir')}.yaml`), irFixture(c));
        writeYaml(join(out, 'icc', `${c.id.replace('-c', '-icc')}.yaml`), iccFixture(c));
      }
      const head = git(src.mirror, ['rev-parse', src.ref]).trim();
      rows.push(
        `| ${src.repo} | ${src.licence} | ${src.language} | ${src.ref} ` +
          `at ${head} | ${merges.length} | ${chains.length} |`,
      );
    } finally {
      rmSync(scratch, { recursive: true, force: true });
    }
  }
  writeFileSync(
    join(out, '_assets', 'SOURCES.md'),
    [
      '# Sources of the GitGoodBench scenarios',
      '',
      "Mined by `scripts/ggb-mine.ts` from these repositories (licence read from the snapshot's own licence file).",
      'Every fixture records the original commit ids (`source.commits`) and the re-created ones (`source.rewritten`).',
      '',
      '| repository | licence | language | mined history | MCR | chains (IR + ICC each) |',
      '|---|---|---|---|---|---|',
      ...rows,
      '',
    ].join('\n'),
  );
}

main();
