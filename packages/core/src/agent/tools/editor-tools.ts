import { z } from 'zod';
import { CAP_NOTE, defineTool, type ToolContext } from '../tool-set';

const decoder = new TextDecoder('utf-8', { fatal: false });
const path = z.string().min(1, 'path must not be empty');

async function readText(ctx: ToolContext, file: string): Promise<string | null> {
  const bytes = await ctx.readFile(file);
  return bytes === null ? null : decoder.decode(bytes);
}

const missing = (file: string) => ({ output: `No such file: ${file}`, isError: true });

/** A part of a file by lines, as read_file and GitGoodBench's view_file_at take it. */
export const LINE_RANGE_ARGS = {
  offset: z.number().int().min(1, 'offset is a line number, 1 or more').optional(),
  limit: z.number().int().min(1, 'limit is a number of lines, 1 or more').optional(),
};
export const LINE_RANGE_PARAMETERS = {
  offset: { type: 'integer', minimum: 1, description: 'First line to return (1-based). Default 1.' },
  limit: {
    type: 'integer',
    minimum: 1,
    description: 'How many lines to return from offset. Default: to the end of the file.',
  },
} as const;
export const RANGE_TRUNCATION_HINT = 'read the file in parts with offset (first line) and limit (number of lines)';

/**
 * The lines asked for, exactly as in the file; a part that is not the whole file ends with a line
 * saying which lines these are and how many the file has, so the model knows where to go on. `what`
 * names the text for an offset past its end: a view that pages a history or a diff is not a file.
 */
export function lineRange(
  text: string,
  range: { offset?: number | undefined; limit?: number | undefined },
  what = 'the file',
): string {
  if (range.offset === undefined && range.limit === undefined) return text;
  const lines = text.match(/[^\n]*\n|[^\n]+$/g) ?? [];
  const from = (range.offset ?? 1) - 1;
  if (from >= lines.length) return `[${what} has ${lines.length} line(s); offset ${from + 1} is past its end]`;
  const to = range.limit === undefined ? lines.length : Math.min(lines.length, from + range.limit);
  const part = lines.slice(from, to).join('');
  if (from === 0 && to === lines.length) return part;
  return (
    `${part}${part.endsWith('\n') ? '' : '\n'}[lines ${from + 1}-${to} ` +
    `of ${lines.length}${to < lines.length ? `; the next part starts at offset ${to + 1}` : ''}]`
  );
}

export const readFileArgs = z.object({ path, ...LINE_RANGE_ARGS }).strict();
export const readFileTool = defineTool<z.infer<typeof readFileArgs>>({
  name: 'read_file',
  description:
    'Read a text file, path relative to the repository root. Returns its content exactly, or ' +
    'with offset and limit only those lines (followed by a line saying which lines of how many). ' +
    `${CAP_NOTE}: to see the rest, ${RANGE_TRUNCATION_HINT}.`,
  parameters: {
    type: 'object',
    properties: {
      path: { type: 'string', description: 'File path relative to the repository root.' },
      ...LINE_RANGE_PARAMETERS,
    },
    required: ['path'],
    additionalProperties: false,
  },
  args: readFileArgs,
  truncationHint: RANGE_TRUNCATION_HINT,
  async run(args, ctx) {
    const text = await readText(ctx, args.path);
    if (text === null) return missing(args.path);
    return { output: lineRange(text, args), isError: false };
  },
});

export const writeFileArgs = z.object({ path, content: z.string() }).strict();
export const writeFileTool = defineTool<z.infer<typeof writeFileArgs>>({
  name: 'write_file',
  description:
    'Create or overwrite a file with the given content (parent ' +
    'directories are created). Path relative to the repository root.',
  parameters: {
    type: 'object',
    properties: {
      path: { type: 'string', description: 'File path relative to the repository root.' },
      content: { type: 'string', description: 'The complete new content of the file.' },
    },
    required: ['path', 'content'],
    additionalProperties: false,
  },
  args: writeFileArgs,
  async run(args, ctx) {
    await ctx.writeFile(args.path, args.content);
    return { output: `Wrote ${new TextEncoder().encode(args.content).length} bytes to ${args.path}.`, isError: false };
  },
});

export const strReplaceArgs = z
  .object({ path, old_str: z.string().min(1, 'old_str must not be empty'), new_str: z.string() })
  .strict();
export const strReplaceTool = defineTool<z.infer<typeof strReplaceArgs>>({
  name: 'str_replace',
  description:
    'Replace the one occurrence of old_str in a file with new_str. Fails when ' +
    'old_str occurs zero or several times (add surrounding lines to make it unique).',
  parameters: {
    type: 'object',
    properties: {
      path: { type: 'string', description: 'File path relative to the repository root.' },
      old_str: { type: 'string', description: 'Exact text to replace; must occur exactly once.' },
      new_str: { type: 'string', description: 'The replacement text.' },
    },
    required: ['path', 'old_str', 'new_str'],
    additionalProperties: false,
  },
  args: strReplaceArgs,
  async run(args, ctx) {
    const text = await readText(ctx, args.path);
    if (text === null) return missing(args.path);
    const first = text.indexOf(args.old_str);
    if (first < 0) return { output: `old_str does not occur in ${args.path}; nothing changed.`, isError: true };
    if (text.indexOf(args.old_str, first + 1) >= 0) {
      const count = text.split(args.old_str).length - 1;
      return {
        output: `old_str occurs ${count} times in ${args.path}; make it unique. Nothing changed.`,
        isError: true,
      };
    }
    await ctx.writeFile(args.path, text.slice(0, first) + args.new_str + text.slice(first + args.old_str.length));
    return { output: `Replaced 1 occurrence in ${args.path}.`, isError: false };
  },
});

export const EDITOR_TOOLS = [readFileTool, writeFileTool, strReplaceTool] as const;
