import { z } from 'zod';
import { defineTool, type ToolContext } from '../tool-set';

const decoder = new TextDecoder('utf-8', { fatal: false });
const path = z.string().min(1, 'path must not be empty');

async function readText(ctx: ToolContext, file: string): Promise<string | null> {
  const bytes = await ctx.readFile(file);
  return bytes === null ? null : decoder.decode(bytes);
}

const missing = (file: string) => ({ output: `No such file: ${file}`, isError: true });

export const readFileArgs = z.object({ path }).strict();
export const readFileTool = defineTool<z.infer<typeof readFileArgs>>({
  name: 'read_file',
  description: 'Read a text file, path relative to the repository root. Returns its content exactly.',
  parameters: { type: 'object', properties: { path: { type: 'string', description: 'File path relative to the repository root.' } }, required: ['path'], additionalProperties: false },
  args: readFileArgs,
  async run(args, ctx) {
    const text = await readText(ctx, args.path);
    if (text === null) return missing(args.path);
    return { output: text, isError: false };
  },
});

export const writeFileArgs = z.object({ path, content: z.string() }).strict();
export const writeFileTool = defineTool<z.infer<typeof writeFileArgs>>({
  name: 'write_file',
  description: 'Create or overwrite a file with the given content (parent directories are created). Path relative to the repository root.',
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

export const strReplaceArgs = z.object({ path, old_str: z.string().min(1, 'old_str must not be empty'), new_str: z.string() }).strict();
export const strReplaceTool = defineTool<z.infer<typeof strReplaceArgs>>({
  name: 'str_replace',
  description: 'Replace the one occurrence of old_str in a file with new_str. Fails when old_str occurs zero or several times (add surrounding lines to make it unique).',
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
      return { output: `old_str occurs ${count} times in ${args.path}; make it unique. Nothing changed.`, isError: true };
    }
    await ctx.writeFile(args.path, text.slice(0, first) + args.new_str + text.slice(first + args.old_str.length));
    return { output: `Replaced 1 occurrence in ${args.path}.`, isError: false };
  },
});

export const EDITOR_TOOLS = [readFileTool, writeFileTool, strReplaceTool] as const;
