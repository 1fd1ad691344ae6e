import {
  agentConfigSchema,
  getToolSet,
  type AgentConfigInput,
  type ToolContext,
  type ToolExecOptions,
  type TrajectoryStep,
} from '@gitbench/core';
import { ProviderRegistry } from '@gitbench/providers';
import {
  startFakeModelServer,
  type FakeModelServer,
  type Reply,
} from '../../../../providers/test/support/fake-model-server';
import { runAgent, type AgentRunResult } from '../../../src/agent/run-agent';

export { openAIError } from '../../../../providers/test/support/fake-model-server';

/**
 * A local server speaking OpenAI chat completions with tool calls, playing one scripted reply per
 * request (the last one again when the script runs out), and the agent loop run against it through
 * the real openai SDK adapter, with tools over an in-memory repository.
 */
export interface ScriptedCall {
  name: string;
  /** An object is sent as its JSON; a string verbatim (bad or truncated JSON). */
  args: unknown;
  id?: string;
}

let counter = 0;

export function toolReply(o: {
  content?: string | null;
  calls?: ScriptedCall[];
  finish?: string;
  usage?: { prompt: number; completion: number; cost?: number };
}): Reply {
  const usage = o.usage ?? { prompt: 100, completion: 20 };
  const calls = o.calls ?? [];
  return {
    json: {
      id: `chatcmpl-${++counter}`,
      object: 'chat.completion',
      created: 1_750_000_000,
      model: 'served-model',
      choices: [
        {
          index: 0,
          finish_reason: o.finish ?? (calls.length > 0 ? 'tool_calls' : 'stop'),
          message: {
            role: 'assistant',
            content: o.content ?? null,
            ...(calls.length > 0
              ? {
                  tool_calls: calls.map((c, i) => ({
                    id: c.id ?? `call_${counter}_${i}`,
                    type: 'function',
                    function: { name: c.name, arguments: typeof c.args === 'string' ? c.args : JSON.stringify(c.args) },
                  })),
                }
              : {}),
          },
        },
      ],
      usage: {
        prompt_tokens: usage.prompt,
        completion_tokens: usage.completion,
        total_tokens: usage.prompt + usage.completion,
        ...(usage.cost !== undefined ? { cost: usage.cost } : {}),
      },
    },
  };
}

export const bash = (command: string, id?: string): ScriptedCall => ({
  name: 'bash',
  args: { command },
  ...(id ? { id } : {}),
});
export const submit = (answer: string, id?: string): ScriptedCall => ({
  name: 'submit',
  args: { answer },
  ...(id ? { id } : {}),
});

/** A repository in memory: files, and commands answered by a function (default: echo the command). */
export function fakeRepo(
  files: Record<string, string> = {},
  answer?: (command: string) => { stdout?: string; stderr?: string; exitCode?: number; delayMs?: number },
) {
  const log: { command: string; started: number; ended: number }[] = [];
  let running = 0;
  let maxRunning = 0;
  const ctx: ToolContext = {
    repoDir: '/work/repo',
    limits: { commandTimeoutMs: 5_000, maxToolOutputBytes: 2_000 },
    signal: new AbortController().signal,
    async exec(command: string, _options?: ToolExecOptions) {
      running++;
      maxRunning = Math.max(maxRunning, running);
      const started = Date.now();
      const a = answer?.(command) ?? { stdout: `ran: ${command}\n` };
      if (a.delayMs) await new Promise((r) => setTimeout(r, a.delayMs));
      running--;
      log.push({ command, started, ended: Date.now() });
      const stdout = a.stdout ?? '';
      const stderr = a.stderr ?? '';
      return {
        command,
        exitCode: a.exitCode ?? 0,
        stdout,
        stderr,
        timedOut: false,
        truncated: false,
        durationMs: 1,
        stdoutBytes: stdout.length,
        stderrBytes: stderr.length,
      };
    },
    readFile: (path: string) => Promise.resolve(path in files ? new TextEncoder().encode(files[path]) : null),
    writeFile: (path: string, content: Uint8Array | string) => {
      files[path] = typeof content === 'string' ? content : new TextDecoder().decode(content);
      return Promise.resolve();
    },
  };
  return { ctx, files, log, maxRunning: () => maxRunning };
}

export interface ScriptedRun {
  server: FakeModelServer;
  result: AgentRunResult;
  streamed: TrajectoryStep[];
  repo: ReturnType<typeof fakeRepo>;
  /** The messages the model was sent in request n. */
  sent(n: number): { role: string; content?: string | null; tool_call_id?: string; tool_calls?: { id: string }[] }[];
}

export async function runScripted(
  replies: Reply[] | ((index: number) => Reply),
  opts: { config?: AgentConfigInput; repo?: ReturnType<typeof fakeRepo>; toolSet?: string; now?: () => number } = {},
): Promise<ScriptedRun> {
  const server = await startFakeModelServer((_req, i) =>
    typeof replies === 'function' ? replies(i) : replies[Math.min(i, replies.length - 1)]!,
  );
  try {
    const registry = new ProviderRegistry({
      policy: { maxAttempts: 2, backoffBaseMs: 5, backoffMaxMs: 10, timeoutMs: 5_000 },
    });
    const target = await registry.resolve({ model: 'test-model', provider: 'openai', baseUrl: `${server.url}/v1` });
    const chat = target.provider.chat!;
    const repo = opts.repo ?? fakeRepo();
    const streamed: TrajectoryStep[] = [];
    const result = await runAgent({
      model: { name: target.provider.name, kind: target.provider.kind, chat: (r) => chat(r) },
      modelName: 'test-model',
      agent: 'test-model',
      toolSet: getToolSet(opts.toolSet ?? 'bash+editor'),
      config: agentConfigSchema.parse(opts.config ?? {}),
      taskPrompt: 'Do the task.',
      ctx: repo.ctx,
      onStep: (s) => void streamed.push(s),
      ...(opts.now ? { now: opts.now } : {}),
    });
    return {
      server,
      result,
      streamed,
      repo,
      sent: (n) => (server.requests[n]?.body.messages ?? []) as ReturnType<ScriptedRun['sent']>,
    };
  } finally {
    await server.close();
  }
}
