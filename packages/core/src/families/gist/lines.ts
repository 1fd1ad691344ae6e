import type { GistEvidence, GistUnit } from './evidence';

/**
 * Gistify's two line metrics (paper section 3 and appendix A.1), from the evaluator's facts.
 *
 * Line existence rate: the share of the gist's lines found in the original. Lines are grouped by
 * block (class or function, nested by hierarchy); a gist block is compared with the original block
 * of the same path (of several, the one holding most of its lines), and a line exists when the
 * matched block has it; with no matching block, none of its lines exist. Top-level lines are
 * compared with the original's top-level lines. Lines are normalised texts (one per statement, so a
 * statement over several physical lines is one line; a combined import is one line per name).
 *
 * Line execution rate: the share of the gist's executable lines (statements and headers; not
 * docstrings, not `pass`/`...` placeholders, not except blocks) that the tracer saw run. Only for a
 * gist that ran, as the paper computes it.
 */

export interface LineExistence {
  found: number;
  total: number;
  rate: number | null;
  /** Per unit of the gist (same order as its units): all of its texts found, some, or none. */
  units: ('found' | 'partial' | 'missing')[];
}

export function lineExistence(evidence: GistEvidence): LineExistence | null {
  const units = evidence.gist?.units;
  if (!units) return null;
  const top = new Set(evidence.topLevelFound ?? []);
  const best = new Map<string, Set<string>>();
  for (const [block, candidates] of Object.entries(evidence.candidates ?? {})) {
    let pick: Set<string> | null = null;
    for (const c of candidates) if (!pick || c.found.length > pick.size) pick = new Set(c.found);
    if (pick) best.set(block, pick);
  }
  let found = 0;
  let total = 0;
  const marks = units.map((u): 'found' | 'partial' | 'missing' => {
    const have = u.block === '' ? top : (best.get(u.block) ?? new Set<string>());
    const hits = u.texts.filter((t) => have.has(t)).length;
    found += hits;
    total += u.texts.length;
    return hits === u.texts.length ? 'found' : hits === 0 ? 'missing' : 'partial';
  });
  return { found, total, rate: total === 0 ? null : found / total, units: marks };
}

export interface LineExecution {
  executed: number;
  executable: number;
  rate: number | null;
}

function ran(unit: GistUnit, executed: ReadonlySet<number>, map?: (line: number) => number | null): boolean {
  for (let line = unit.lines[0]; line <= unit.lines[1]; line++) {
    const at = map ? map(line) : line;
    if (at !== null && executed.has(at)) return true;
  }
  return false;
}

/** Null when the gist did not run (no trace), as in the paper. */
export function lineExecution(evidence: GistEvidence): LineExecution | null {
  const execution = evidence.execution;
  const units = execution?.units ?? evidence.gist?.units;
  if (!execution || !units) return null;
  const executed = new Set(execution.executed);
  const executable = units.filter((u) => u.kind === 'code');
  const hit = executable.filter((u) => ran(u, executed)).length;
  return {
    executed: hit,
    executable: executable.length,
    rate: executable.length === 0 ? null : hit / executable.length,
  };
}

export const LINE_MARKS = ['executed', 'not_executed', 'not_counted', 'replaced', 'not_run'] as const;
export type LineExecutionMark = (typeof LINE_MARKS)[number];

export interface GistLine {
  number: number;
  text: string;
  /** Null for lines that are not code (blank, comments, continuation of nothing). */
  execution: LineExecutionMark | null;
  existence: 'found' | 'partial' | 'missing' | null;
  /** The block the line's code belongs to, for a tooltip. */
  block: string | null;
}

/**
 * The gist as the agent wrote it, line by line, for the attempt page: whether each line's code ran
 * (`not_counted` for docstrings, placeholders and except blocks; `replaced` inside a test the
 * original's version replaced; `not_run` when the gist never ran), and whether it is found in the
 * original.
 */
export function gistLines(evidence: GistEvidence): GistLine[] {
  const text = evidence.gist?.text;
  if (text === undefined) return [];
  const units = evidence.gist?.units ?? [];
  const existence = lineExistence(evidence);
  const execution = evidence.execution;
  const executed = new Set(execution?.executed ?? []);
  const lineMap = evidence.gist?.lineMap;
  const map = (line: number) => (lineMap ? (lineMap[line - 1] ?? null) : line);
  const byLine = new Map<number, number>();
  units.forEach((u, i) => {
    for (let line = u.lines[0]; line <= u.lines[1]; line++) if (!byLine.has(line)) byLine.set(line, i);
  });
  return text.split('\n').map((content, index) => {
    const number = index + 1;
    const at = byLine.get(number);
    if (at === undefined) return { number, text: content, execution: null, existence: null, block: null };
    const unit = units[at]!;
    let mark: LineExecutionMark;
    if (!execution) mark = 'not_run';
    else if (map(number) === null) mark = 'replaced';
    else if (unit.kind !== 'code') mark = 'not_counted';
    else mark = ran(unit, executed, map) ? 'executed' : 'not_executed';
    return {
      number,
      text: content,
      execution: mark,
      existence: existence?.units[at] ?? null,
      block: unit.block || null,
    };
  });
}
