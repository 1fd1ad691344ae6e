import { createInterface } from 'node:readline';
import { ManualAnswerError, parseManualAnswer, UNKNOWN_COST, type WireTool } from '@gitbench/core';
import type { AgentChatRequest, AgentChatResult, AgentMessage, AgentToolCall, Provider } from '@gitbench/providers';

/**
 * A person as the agent: each turn of the agent loop asks the person for the next command instead of
 * asking a model. What they type goes through the same loop, tools, sandbox session and limits as a
 * model's calls (every command a fresh bash at the repository root, its processes killed when it
 * ends, the repository scored as the loop leaves it), and each command with its output, exit code and
 * time is a step of the trajectory the loop records. The person sees what the model is given: the
 * task as its prompt says it, then each command's output as the tool returns it.
 */

export const HUMAN_SHELL_HELP = `Each line is one bash command, run at the repository root in a fresh shell, as the \
agent's bash
tool runs it: cd does not carry over (chain with &&), nothing is interactive (no pager, no editor).
  submit [answer]   end the attempt (the answer only for a task that asks a question)
  exit, Ctrl-D      end without an answer
  :task             the task again      :help  this help
  :<tool> …         another tool of the set, as gitbench manual takes it (:str_replace {"path": …})
`;

interface LineSource {
  next(prompt: string): Promise<string | null>;
  close(): void;
}

/** Lines from the terminal (with editing and history where it is one) or a pipe, none lost between prompts. */
export function lineSource(
  input: NodeJS.ReadableStream & { isTTY?: boolean },
  output: NodeJS.WritableStream,
): LineSource {
  const rl = createInterface({ input, output, terminal: input.isTTY === true, historySize: 1000 });
  const queued: string[] = [];
  let ended = false;
  let waiting: ((line: string | null) => void) | null = null;
  rl.on('line', (line) => {
    if (waiting) {
      const w = waiting;
      waiting = null;
      w(line);
    } else queued.push(line);
  });
  rl.on('close', () => {
    ended = true;
    waiting?.(null);
    waiting = null;
  });
  return {
    next(prompt) {
      if (queued.length > 0) {
        output.write(`${prompt}${queued[0]}\n`);
        return Promise.resolve(queued.shift()!);
      }
      if (ended) return Promise.resolve(null);
      rl.setPrompt(prompt);
      rl.prompt();
      return new Promise((resolve) => (waiting = resolve));
    },
    close: () => rl.close(),
  };
}

function taskOf(messages: readonly AgentMessage[]): string {
  return messages
    .filter((m) => m.role === 'user')
    .map((m) => m.content)
    .join('\n\n');
}

function wireTools(request: AgentChatRequest): WireTool[] {
  return request.tools.map((t) => ({
    type: 'function' as const,
    function: { name: t.name, description: t.description, parameters: t.parameters },
  }));
}

export interface HumanShellOptions {
  name: string;
  lines: LineSource;
  output: NodeJS.WritableStream;
}

export function createHumanShell({ name, lines, output }: HumanShellOptions): Provider {
  let turn = 0;
  let seen = 0;
  const write = (text: string) => output.write(text);

  /** The next line, unless the attempt's time runs out first (the loop's signal): then the loop ends as time_limit. */
  function nextLine(signal: AbortSignal | undefined): Promise<string | null> {
    const line = lines.next(`${name}@sandbox$ `);
    if (!signal) return line;
    return new Promise((resolve, reject) => {
      const stop = () => {
        write('\n⏱ the attempt is over (its time limit, or it was stopped)\n');
        reject(signal.reason instanceof Error ? signal.reason : new Error('stopped'));
      };
      if (signal.aborted) return stop();
      signal.addEventListener('abort', stop, { once: true });
      line.then(resolve, reject).finally(() => signal.removeEventListener('abort', stop));
    });
  }

  async function ask(request: AgentChatRequest): Promise<AgentToolCall[]> {
    const offered = new Set(request.tools.map((t) => t.name));
    if (!offered.has('bash') || !offered.has('submit')) {
      throw new ManualAnswerError(
        `gitbench human needs a tool set with bash and submit; this one ` +
          `offers ${[...offered].join(', ')} (use --tool-set bash or bash+editor).`,
      );
    }
    for (;;) {
      const line = await nextLine(request.signal);
      if (line === null || line.trim() === 'exit') {
        if (line === null) write('\n');
        return [{ id: `human_${turn}`, name: 'submit', arguments: JSON.stringify({ answer: '' }) }];
      }
      const command = line.trim();
      if (command === '') continue;
      if (command === ':help') {
        write(HUMAN_SHELL_HELP);
        continue;
      }
      if (command === ':task') {
        write(`${taskOf(request.messages)}\n`);
        continue;
      }
      if (command === 'submit' || command.startsWith('submit ')) {
        return [
          {
            id: `human_${turn}`,
            name: 'submit',
            arguments: JSON.stringify({ answer: command.slice('submit'.length).trim() }),
          },
        ];
      }
      if (command.startsWith(':')) {
        try {
          const parsed = parseManualAnswer(command.slice(1), wireTools(request));
          if (parsed.toolCalls.length > 0) return parsed.toolCalls.map((c, i) => ({ id: `human_${turn}_${i}`, ...c }));
          write('✗ that is not a tool call; :help says how to write one\n');
        } catch (error) {
          write(`✗ ${(error as Error).message}\n`);
        }
        continue;
      }
      return [{ id: `human_${turn}`, name: 'bash', arguments: JSON.stringify({ command: line }) }];
    }
  }

  return {
    name: `a person (${name})`,
    kind: 'human',
    complete: () => Promise.reject(new Error('a person works agent attempts only (gitbench human)')),
    async chat(request) {
      if (request.protocol !== 'native') throw new ManualAnswerError('gitbench human runs the native tool protocol.');
      if (turn === 0) write(`\n── the task ──\n${taskOf(request.messages)}\n──────────────\n${HUMAN_SHELL_HELP}\n`);
      // What the tools returned since the last turn, as the model would read it.
      for (const m of request.messages.slice(seen)) {
        if (m.role === 'tool') write(`${m.content}\n`);
        else if (m.role === 'user' && turn > 0) write(`[the loop says] ${m.content}\n`);
      }
      const asked = performance.now();
      const toolCalls = await ask(request);
      // The person's time to answer stands where a model's call time stands ("API time" on the pages).
      const answeredInMs = Math.round(performance.now() - asked);
      seen = request.messages.length + 1;
      turn++;
      return {
        content: null,
        reasoning: null,
        toolCalls,
        finishReason: 'tool_calls',
        usage: { inputTokens: null, outputTokens: null, reasoningTokens: null, totalTokens: null },
        cost: UNKNOWN_COST,
        apiDurationMs: answeredInMs,
        retries: [],
        route: {
          provider: 'human',
          profile: 'human',
          baseUrl: null,
          requestedModel: name,
          servedModel: null,
          responseId: null,
          upstreamProvider: null,
          simulated: false,
        },
      } satisfies AgentChatResult;
    },
  };
}
