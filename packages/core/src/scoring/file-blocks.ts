import { fenceBody } from './extract-commands';
import { PY_SPACE, pyStrip } from './python-text';

/**
 * Reading "resolved file" answers exactly as upstream GitBench reads them: one or more files, each
 * introduced by a heading line, or (with a single expected file) the bare content.
 *
 * A heading is a whole line of the form `[#..###### ][--- ][`]name[`][ :]`, where the name uses only
 * ASCII letters, digits and `_ . - /`. Such a line opens a block when it names an expected file; a
 * line that merely looks like one (`server:` inside YAML content) opens a block only when its name has
 * a dot or a slash, it follows a blank line or the previous heading directly (never the middle of a
 * paragraph), and it is not the first line of an answer that may be bare content of its one file.
 * The same file twice, or non-blank text before the first heading, makes the answer unreadable.
 * Lines are split on `\n` after turning `\r\n` and `\r` into `\n`, so every other character, blank
 * and whitespace-only lines included, stays part of the content.
 */

export interface FileBlocks {
  /** Content per named file, in the order the answer gives them. */
  files: Map<string, string>;
  /** Number of heading lines that opened a block (0 when the answer was read as bare content). */
  headings: number;
}

export class FileBlocksError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'FileBlocksError';
  }
}

const HEADING = new RegExp(
  `^${PY_SPACE}*(?:#{1,6}${PY_SPACE}*)?(?:---${PY_SPACE}*)?\`?([A-Za-z0-9_.\\-/]+)\`?${PY_SPACE}*:?${PY_SPACE}*$`,
  'u',
);

const isBlank = (line: string) => pyStrip(line) === '';

interface HeadingContext {
  expected: ReadonlySet<string>;
  current: string | null;
  previousBlank: boolean;
  bareContentAllowed: boolean;
}

function headingName(line: string, ctx: HeadingContext): string | null {
  const match = HEADING.exec(line);
  if (!match) return null;
  const name = match[1] as string;
  if (ctx.expected.has(name)) return name;
  if (!name.includes('.') && !name.includes('/')) return null;
  if (ctx.current === null && ctx.bareContentAllowed) return null;
  if (ctx.current !== null && !ctx.previousBlank) return null;
  return name;
}

/**
 * Split an answer into file blocks. `bareContentFor` names the one expected file whose bare content
 * the answer may be; throws FileBlocksError when the answer cannot be read as files.
 */
export function parseFileBlocks(
  output: string,
  expectedNames: Iterable<string>,
  bareContentFor: string | null = null,
): FileBlocks {
  const expected = new Set(expectedNames);
  const blocks = new Map<string, string[]>();
  const unheaded: string[] = [];
  let current: string | null = null;
  let lines: string[] = [];
  let previousBlank = true;
  for (const line of output.replace(/\r\n?/g, '\n').split('\n')) {
    const heading = headingName(line, {
      expected,
      current,
      previousBlank,
      bareContentAllowed: bareContentFor !== null,
    });
    if (heading !== null) {
      if (current === null && unheaded.some((l) => !isBlank(l)))
        throw new FileBlocksError('expected a file heading before file content');
      if (current !== null) blocks.set(current, lines);
      if (blocks.has(heading)) throw new FileBlocksError(`the answer gives file ${heading} twice`);
      current = heading;
      lines = [];
      previousBlank = false;
      continue;
    }
    (current === null ? unheaded : lines).push(line);
    previousBlank = isBlank(line);
  }
  if (current !== null) blocks.set(current, lines);
  if (blocks.size === 0) {
    if (bareContentFor === null) throw new FileBlocksError('no file blocks found');
    return { files: new Map([[bareContentFor, unheaded.join('\n')]]), headings: 0 };
  }
  return { files: new Map([...blocks].map(([name, body]) => [name, body.join('\n')])), headings: blocks.size };
}

/** One fence around a file's content (language tag allowed), judged after dropping newlines at both ends. */
function stripFileFence(content: string): string {
  const inner = fenceBody(content.replace(/^\n+|\n+$/g, '').split('\n'));
  return inner === null ? content : inner.join('\n');
}

/**
 * Comparison form of file content: one wrapping fence removed, line endings unified, empty lines at
 * both ends dropped and spaces and tabs at the end of each line removed. A whitespace-only line at
 * either end is not empty, so it stays (as a now empty line); indentation and interior blank lines count.
 */
export function normalizeFileContent(content: string): string {
  const lines = stripFileFence(content).replace(/\r\n?/g, '\n').split('\n');
  let start = 0;
  let end = lines.length;
  while (start < end && lines[start] === '') start++;
  while (end > start && lines[end - 1] === '') end--;
  return lines
    .slice(start, end)
    .map((line) => line.replace(/[ \t]+$/, ''))
    .join('\n');
}
