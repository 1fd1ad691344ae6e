import type { StepHead } from '@gitbench/core/step-head';
import type { TrajectoryStep } from '@gitbench/core';

/**
 * What the trajectory viewer sends to the browser. A trajectory can hold tens of megabytes of tool
 * output, so the page never ships steps whole: every step goes as a StepHead (a few hundred bytes:
 * timing, usage, which calls failed, the repository's counts), and only the steps on screen go as
 * ViewSteps, whose bodies are cut to a preview. The full body of one output or diff is a separate
 * request, made when the reader asks for it.
 *
 * Only type imports from core's index, and step heads from its browser-safe `step-head` entry: this
 * module is bundled into the browser, core as a whole is not.
 */

export type { StepCallHead, StepResultHead, StepHead } from '@gitbench/core/step-head';
export { callLabel, mainArgument, stepHead as headOf } from '@gitbench/core/step-head';

/** Bytes of a body left out of a ViewStep, keyed by what it belongs to; absent when nothing was cut. */
export interface Clipped {
  /** Per tool call id: its output. */
  output: Record<string, number>;
  /** Per tool call id: its raw arguments. */
  arguments: Record<string, number>;
  diff?: number;
  content?: number;
  reasoning?: number;
}

export interface ViewStep extends TrajectoryStep {
  clipped: Clipped;
}

/** The parts of a step whose full text can be asked for on its own (see fullPart). */
export type StepPart =
  | { kind: 'output'; callId: string }
  | { kind: 'arguments'; callId: string }
  | { kind: 'diff' }
  | { kind: 'content' }
  | { kind: 'reasoning' };

export const VIEW_LIMITS = {
  /** Per tool output: enough for about a hundred lines, head and tail. */
  outputBytes: 8_192,
  argumentBytes: 4_096,
  diffBytes: 24_576,
  messageBytes: 16_384,
};
/** Steps travel in aligned pages of this many, so scrolling back and forth reuses requests. */
export const STEP_PAGE = 20;

const encoder = new TextEncoder();

/**
 * Cuts `text` to at most `maxBytes` of UTF-8 (plus a one-line marker), keeping head and tail as the
 * runtime does for the model, and says how many bytes were left out. Cuts fall on character
 * boundaries.
 */
export function clipText(text: string, maxBytes: number): { text: string; clippedBytes: number } {
  // A UTF-16 code unit is at most 3 bytes of UTF-8, so short strings need no encoding.
  if (text.length * 3 <= maxBytes) return { text, clippedBytes: 0 };
  const bytes = encoder.encode(text);
  if (bytes.length <= maxBytes) return { text, clippedBytes: 0 };
  const half = Math.floor(maxBytes / 2);
  // `stream` holds back a character cut in two at the end of the head.
  const head = new TextDecoder().decode(bytes.subarray(0, half), { stream: true });
  let from = bytes.length - half;
  while (from < bytes.length && (bytes[from]! & 0xc0) === 0x80) from++; // continuation bytes of a cut character
  const tail = new TextDecoder().decode(bytes.subarray(from));
  const clippedBytes = bytes.length - encoder.encode(head).length - (bytes.length - from);
  return { text: `${head}\n[… ${clippedBytes.toLocaleString('en-US')} bytes not loaded …]\n${tail}`, clippedBytes };
}

/** Long strings inside parsed arguments (a file written whole) are cut like outputs. */
function clipValue(v: unknown, maxBytes: number): unknown {
  if (typeof v === 'string') return clipText(v, maxBytes).text;
  if (Array.isArray(v)) return v.map((x) => clipValue(x, maxBytes));
  if (v && typeof v === 'object')
    return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, clipValue(x, maxBytes)]));
  return v;
}

export function clipStep(step: TrajectoryStep, limits = VIEW_LIMITS): ViewStep {
  const clipped: Clipped = { output: {}, arguments: {} };
  const results = step.results.map((r) => {
    const c = clipText(r.output, limits.outputBytes);
    if (c.clippedBytes) clipped.output[r.callId] = c.clippedBytes;
    return c.clippedBytes ? { ...r, output: c.text } : r;
  });
  const toolCalls = step.toolCalls.map((call) => {
    const c = clipText(call.rawArguments, limits.argumentBytes);
    if (!c.clippedBytes) return call;
    clipped.arguments[call.id] = c.clippedBytes;
    return { ...call, rawArguments: c.text, arguments: clipValue(call.arguments, limits.argumentBytes) };
  });
  const content = step.message.content === null ? null : clipText(step.message.content, limits.messageBytes);
  const reasoning = step.message.reasoning === null ? null : clipText(step.message.reasoning, limits.messageBytes);
  if (content?.clippedBytes) clipped.content = content.clippedBytes;
  if (reasoning?.clippedBytes) clipped.reasoning = reasoning.clippedBytes;
  let repo = step.repo;
  if (repo) {
    const d = clipText(repo.diff, limits.diffBytes);
    if (d.clippedBytes) {
      clipped.diff = d.clippedBytes;
      repo = { ...repo, diff: d.text };
    }
  }
  return {
    ...step,
    message: { content: content?.text ?? null, reasoning: reasoning?.text ?? null },
    toolCalls,
    results,
    repo,
    clipped,
  };
}

/** The full text of one part of a step, or null when the step has no such part. */
export function fullPart(step: TrajectoryStep, part: StepPart): string | null {
  switch (part.kind) {
    case 'output':
      return step.results.find((r) => r.callId === part.callId)?.output ?? null;
    case 'arguments':
      return step.toolCalls.find((c) => c.id === part.callId)?.rawArguments ?? null;
    case 'diff':
      return step.repo?.diff ?? null;
    case 'content':
      return step.message.content;
    case 'reasoning':
      return step.message.reasoning;
  }
}

export function parseStepPart(kind: string | null, callId: string | null): StepPart | null {
  if (kind === 'output' || kind === 'arguments') return callId ? { kind, callId } : null;
  if (kind === 'diff' || kind === 'content' || kind === 'reasoning') return { kind };
  return null;
}

/**
 * The number a reader sees for a step: from 1, as the step count ("6 steps" ends at step 6). Indexes stay
 * 0-based where the program reads them (URLs, the step API, ATIF's own ids).
 */
export function stepNumber(index: number): number {
  return index + 1;
}

/** "1 step", "6 steps": a count with its noun. */
export function countOf(n: number, noun: string): string {
  return `${n.toLocaleString('en-US')} ${noun}${n === 1 ? '' : 's'}`;
}

/** A byte count the way a reader takes it in: B under a kilobyte, then KB, then MB. */
export function byteSize(bytes: number): string {
  if (bytes < 1000) return `${bytes} B`;
  if (bytes < 1e6) return `${(bytes / 1e3).toFixed(1)} KB`;
  return `${(bytes / 1e6).toFixed(1)} MB`;
}

type RepoHead = StepHead['repo'];

/**
 * Whether a step changed the repository, against the step before it: refs moved, the work tree or
 * index changed, HEAD or the branch moved, or an operation started or ended. A merge left in progress
 * is not a change at every step after it (it marked every step of a conflict fixture); the first
 * step, with no step before it, counts refs and the diff only.
 */
export function repoChanged(repo: RepoHead, prev: RepoHead): boolean {
  if (!repo) return false;
  if (repo.refsChanged > 0 || repo.diffBytes > 0) return true;
  if (!prev) return false;
  return (
    repo.head !== prev.head || repo.branch !== prev.branch || repo.operations.join(',') !== prev.operations.join(',')
  );
}

/**
 * How a call ended, as its badge says it. A sandbox that failed under the call is the step's infrastructure error,
 * not anything the command did: it is named so, never shown as an exit of the command.
 */
export function resultLabel(
  result: Pick<TrajectoryStep['results'][number], 'timedOut' | 'exitCode' | 'isError' | 'sandboxError'>,
): string {
  if (result.sandboxError !== undefined) return 'sandbox failed';
  if (result.timedOut) return 'timed out';
  if (result.exitCode !== null) return `exit ${result.exitCode}`;
  return result.isError ? 'error' : 'ok';
}

/** A command failed: a non-zero exit, a timeout, an error result or arguments the runtime refused. */
export function stepFailed(head: Pick<StepHead, 'results' | 'calls'>): boolean {
  return (
    head.calls.some((c) => c.parseError) ||
    head.results.some((r) => r.isError || r.timedOut || (r.exitCode !== null && r.exitCode !== 0))
  );
}

export interface JumpTargets {
  firstFailure: number | null;
  failures: number[];
  formatStrikes: number[];
  /** The step where a configured limit stopped the loop, when one did. */
  limit: number | null;
  /** Steps after which a merge, rebase, cherry-pick, ... was in progress or files were conflicted. */
  conflicts: number[];
}

export function jumpTargets(
  heads: readonly StepHead[],
  stop: { limit: boolean; exitStep: number | null } | null,
): JumpTargets {
  const failures = heads.filter(stepFailed).map((h) => h.index);
  return {
    firstFailure: failures[0] ?? null,
    failures,
    formatStrikes: heads.filter((h) => h.formatStrike).map((h) => h.index),
    limit: stop?.limit ? (stop.exitStep ?? heads.at(-1)?.index ?? null) : null,
    conflicts: heads.filter((h) => (h.repo?.conflicted ?? 0) > 0).map((h) => h.index),
  };
}

export const SEARCH_FIELDS = ['message', 'reasoning', 'arguments', 'output', 'diff', 'note'] as const;
export type SearchField = (typeof SEARCH_FIELDS)[number];
export interface SearchHit {
  index: number;
  fields: SearchField[];
}

/** Case-insensitive substring search over every text a step holds. */
export function searchStep(step: TrajectoryStep, query: string): SearchHit | null {
  const q = query.toLowerCase();
  const has = (s: string | null | undefined) => !!s && s.toLowerCase().includes(q);
  const fields: SearchField[] = [];
  if (has(step.message.content)) fields.push('message');
  if (has(step.message.reasoning)) fields.push('reasoning');
  if (step.toolCalls.some((c) => has(c.rawArguments) || has(c.name))) fields.push('arguments');
  if (step.results.some((r) => has(r.output))) fields.push('output');
  if (has(step.repo?.diff)) fields.push('diff');
  if (has(step.runtimeNote) || step.toolCalls.some((c) => has(c.parseError))) fields.push('note');
  return fields.length ? { index: step.index, fields } : null;
}

/**
 * A text cut at every case-insensitive occurrence of the query (the search's own rule), so the viewer
 * can mark where a step matched; one unmatched part when there is no query or no match.
 */
export function matchParts(text: string, query: string | null): { text: string; match: boolean }[] {
  if (!query) return [{ text, match: false }];
  const pieces = text.split(new RegExp(`(${query.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')})`, 'gi'));
  // split with one capture group alternates: unmatched, match, unmatched, ...
  return pieces.map((piece, i) => ({ text: piece, match: i % 2 === 1 })).filter((p) => p.text !== '');
}

/** Where two trajectories stand at the same step: the compare view marks where they part. */
export interface AlignedRow {
  index: number;
  a: StepHead | null;
  b: StepHead | null;
  /** Both sides left the repository at the same HEAD with the same status counts after this step. */
  sameRepo: boolean;
}

export function alignByStep(a: readonly StepHead[], b: readonly StepHead[]): AlignedRow[] {
  const n = Math.max(a.length, b.length);
  const rows: AlignedRow[] = [];
  for (let i = 0; i < n; i++) {
    const x = a[i] ?? null;
    const y = b[i] ?? null;
    const rx = x?.repo;
    const ry = y?.repo;
    const sameRepo =
      !!rx &&
      !!ry &&
      rx.head === ry.head &&
      rx.branch === ry.branch &&
      rx.staged === ry.staged &&
      rx.unstaged === ry.unstaged &&
      rx.untracked === ry.untracked &&
      rx.conflicted === ry.conflicted &&
      rx.operations.join() === ry.operations.join();
    rows.push({ index: i, a: x, b: y, sameRepo });
  }
  return rows;
}
