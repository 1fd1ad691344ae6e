import { pySplitlines, pyStrip } from './python-text';
import { ShellWordsError, shellWords } from './shell-words';

/**
 * How an answer becomes command lines, as upstream's command benchmarks (git_clean, submodule,
 * tag and worktree usage) and command_equivalence read it: the whole answer is either plain lines
 * or exactly one fenced code block (an optional language tag on the opening fence). Prose around a
 * fence is not mined for commands: the model was asked for commands only, so such an answer gets no
 * commands at all. Every line must parse as shell words; blank lines are dropped.
 */

export type CommandExtraction =
  { ok: true; commands: string[]; fenced: boolean } | { ok: false; reason: string; commands: [] };

// Python's `[\w+.-]+` for the language tag of an opening fence.
const FENCE_TAG = /^[\p{L}\p{N}_+.-]+$/u;

/**
 * Remove one fence that wraps the whole text (after trimming). Returns null when there is none,
 * including an unterminated fence or an opening line that carries more than a language tag.
 */
export function stripWrappingFence(text: string): string | null {
  const inner = fenceBody(pySplitlines(pyStrip(text)));
  return inner === null ? null : pyStrip(inner.join('\n'));
}

/**
 * The lines inside a fence that opens on the first line (``` and an optional language tag) and closes
 * on the last, or null when the lines are not so wrapped.
 */
export function fenceBody(lines: readonly string[]): string[] | null {
  if (lines.length < 2) return null;
  const opening = pyStrip(lines[0] as string);
  const closing = pyStrip(lines[lines.length - 1] as string);
  if (!opening.startsWith('```') || closing !== '```') return null;
  const tag = pyStrip(opening.slice(3));
  if (tag && !FENCE_TAG.test(tag)) return null;
  return lines.slice(1, -1);
}

/**
 * Upstream's whole-answer command fence (normalize_command_answer): ``` and an optional language tag,
 * spaces or tabs, a \n, the body, a \n and the closing ``` at the very end. Narrower than
 * stripWrappingFence (exact_match's): a fence whose lines end in \r\n or another of Python's line
 * breaks, a space before the tag, or a closing fence indented or followed by more is prose here.
 */
const COMMAND_FENCE = /^```(?:[\p{L}\p{N}_+.-]+)?[ \t]*\n([^]*?)\n```$/u;

export function extractCommands(output: string): CommandExtraction {
  const stripped = pyStrip(output);
  const fence = stripped.includes('```') ? COMMAND_FENCE.exec(stripped) : null;
  if (stripped.includes('```') && !fence) {
    return {
      ok: false,
      reason:
        'the answer has prose around a fenced code block; only plain command lines or one whole-answer fence are run',
      commands: [],
    };
  }
  const body = fence ? pyStrip(fence[1]!) : stripped;
  if (body.includes('```')) {
    return {
      ok: false,
      reason:
        'the answer has more than one fenced code block; only plain command lines or one whole-answer fence are run',
      commands: [],
    };
  }
  const lines = pySplitlines(body)
    .map((line) => pyStrip(line))
    .filter((line) => line.length > 0);
  if (lines.length === 0) return { ok: false, reason: 'the answer has no command lines', commands: [] };
  for (const [index, line] of lines.entries()) {
    try {
      shellWords(line);
    } catch (error) {
      if (!(error instanceof ShellWordsError)) throw error;
      return { ok: false, reason: `line ${index + 1} is not a valid command: ${error.message}`, commands: [] };
    }
  }
  return { ok: true, commands: lines, fenced: fence !== null };
}
