import { describeAgents } from '@gitbench/agents';
import type { ParsedArgs } from '../args';
import { EXIT } from '../exit';

/**
 * `gitbench agents [--json]`: the third-party coding agents `--agent` runs, each with its pinned version and protocol.
 */
export async function agentsCommand(args: ParsedArgs): Promise<number> {
  const agents = describeAgents();
  if (args.flags.has('json')) {
    process.stdout.write(`${JSON.stringify({ agents }, null, 2)}\n`);
    return EXIT.ok;
  }
  const width = Math.max(...agents.map((a) => a.name.length));
  const lines = ['third-party coding agents (gitbench run <dir> --mode agent --agent <name> --model <id>):'];
  for (const a of agents)
    lines.push(
      `  ${a.name.padEnd(width)}  ${a.npmPackage}@${a.version}  ${a.protocol}${a.streams ? ', streamed' : ''}`,
    );
  process.stdout.write(`${lines.join('\n')}\n`);
  return EXIT.ok;
}
