import type { Tool, ToolSet } from '../tool-set';
import { bashTool } from './bash-tool';
import { EDITOR_TOOLS } from './editor-tools';
import { submitTool } from './submit-tool';

/**
 * Tool sets by name. A task family registers its own with registerToolSet (at module load); campaign
 * configuration accepts any registered name or `default`. Every set ends with `submit`.
 */
const REGISTRY = new Map<string, ToolSet>();

export function registerToolSet(set: ToolSet): void {
  if (!set.tools.some((t) => t.terminal)) throw new Error(`tool set ${set.name} has no terminal tool (submit)`);
  const names = set.tools.map((t) => t.name);
  if (new Set(names).size !== names.length) throw new Error(`tool set ${set.name} names a tool twice`);
  REGISTRY.set(set.name, set);
}

export function findToolSet(name: string): ToolSet | undefined {
  return REGISTRY.get(name);
}

export function getToolSet(name: string): ToolSet {
  const set = REGISTRY.get(name);
  if (!set) throw new Error(`Unknown tool set '${name}'. Registered: ${toolSetNames().join(', ')}.`);
  return set;
}

export function toolSetNames(): string[] {
  return [...REGISTRY.keys()].sort();
}

export function findTool(set: ToolSet, name: string): Tool | undefined {
  return set.tools.find((t) => t.name === name);
}

registerToolSet({
  name: 'bash',
  description: 'One bash command per call in the repository, and submit.',
  tools: [bashTool, submitTool],
  instructions:
    'Use the bash tool to inspect and change the repository, one command per call; commands ' +
    'are not interactive (no pager, no editor prompt). Call submit when you are done.',
});
registerToolSet({
  name: 'editor',
  description: 'Read, write and edit files, and submit (no shell).',
  tools: [...EDITOR_TOOLS, submitTool],
  instructions: 'Use read_file, write_file and str_replace to work on files. Call submit when you are done.',
});
registerToolSet({
  name: 'bash+editor',
  description: 'bash, the file editor (read_file, write_file, str_replace), and submit.',
  tools: [bashTool, ...EDITOR_TOOLS, submitTool],
  instructions:
    'Use bash to run commands (git and the usual tools; not interactive: no pager, no editor prompt) and ' +
    'read_file / write_file / str_replace to edit files, one call at a time. Call submit when you are done.',
});
