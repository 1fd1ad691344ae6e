import { agentBudgetSentence, type AgentLimits, type ToolSet } from '@gitbench/core';
import type { AgentWireProtocol } from '@gitbench/providers';

/** The runtime's answer to a turn without a usable tool call (a format strike). */
export function continueMessage(protocol: AgentWireProtocol, why: string): string {
  // Native turns have one reason (no call); the text protocol says what was wrong with the block.
  return protocol === 'native'
    ? `Your last message had no tool call. Continue the task by calling a tool; call submit when you are done.`
    : `Your last message could not be used (${why}). Reply with exactly one fenced \`\`\`bash ` +
        `block; to finish, a block whose first line is \`submit\` followed by your answer.`;
}

/** What a shell's user must know of the sandbox's /tmp: it is small, and a command that fills it fails. */
export function tmpSentence(tmpBytes: number): string {
  return (
    `/tmp is an in-memory file system of ${Math.round(tmpBytes / (1024 * 1024))} MB: keep ` +
    `large temporary files (a copy of the repository, big archives or logs) out of it.`
  );
}

/**
 * The system prompt: the sandbox, the tool set's own instructions (what it can do, and nothing it
 * cannot: ggb-mcr has no shell), and, in text mode, the protocol. What is checked is said once, in
 * the task (agentTaskPrompt), not here. The budget is the attempt's own limits, where the loop stops;
 * the size of /tmp (tmpBytes, where the sandbox caps it) is said to a tool set with a shell.
 */
export function agentSystemPrompt(
  toolSet: ToolSet,
  protocol: AgentWireProtocol,
  repoDir: string,
  limits: Pick<AgentLimits, 'maxTurns' | 'maxWallMs' | 'commandTimeoutMs'>,
  tmpBytes?: number,
): string {
  const shell = toolSet.tools.some((t) => t.name === 'bash');
  const lines = [
    `You are working in a git repository at ${repoDir} inside a sandbox with no network access.`,
    'Work step by step with your tools.',
    // A tool set without a shell runs no command the model writes, so its budget names none.
    agentBudgetSentence(limits, shell ? limits.commandTimeoutMs : null),
    ...(shell && tmpBytes !== undefined ? [tmpSentence(tmpBytes)] : []),
  ];
  if (protocol === 'native') {
    if (toolSet.instructions) lines.push(toolSet.instructions);
    lines.push('Call one tool at a time.');
  } else {
    lines.push(
      'Each reply must contain exactly one fenced code block tagged bash, holding the ' +
        'command to run in the repository root; you will see its output and exit code ' +
        'in the next message. Commands are not interactive (no pager, no editor prompt).',
      'To finish, reply with one bash block whose first line is `submit`; the lines after it are your answer, e.g.:',
      '```bash\nsubmit\nyour answer here\n```',
    );
  }
  return lines.join('\n');
}
