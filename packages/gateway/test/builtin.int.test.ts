import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type Anthropic from '@anthropic-ai/sdk';
import type OpenAI from 'openai';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { callsToTrajectory } from '@gitbench/core';
import type { BuiltinBackend } from '../src';
import { failure, startHarness, type GatewayHarness } from './support/harness';

/**
 * The built-in models behind the gateway, answering in the agent's own shell tool: the oracle plays a
 * reference solution one command per call and then answers, nop answers at once. The test plays the
 * agent's loop: it runs each command in a real git repository and sends the output back.
 */

const REFERENCE = ['git checkout -q -b topic', 'echo fixed > a.txt', 'git add a.txt && git commit -q -m "Fix a"'];

let repoDir: string;
let h: GatewayHarness | undefined;
beforeEach(() => {
  repoDir = mkdtempSync(path.join(tmpdir(), 'oracle-repo-'));
  const git = (...args: string[]) => execFileSync('git', args, { cwd: repoDir });
  git('init', '-q', '-b', 'main');
  git('-c', 'user.name=t', '-c', 'user.email=t@e', 'commit', '-q', '--allow-empty', '-m', 'start');
});
afterEach(async () => {
  await h?.close();
  h = undefined;
  rmSync(repoDir, { recursive: true, force: true });
});

/** Runs one command in the repository as an agent's shell tool would, returning its output. */
function run(command: string): string {
  return execFileSync('bash', ['-c', command], {
    cwd: repoDir,
    encoding: 'utf8',
    env: {
      ...process.env,
      GIT_AUTHOR_NAME: 't',
      GIT_AUTHOR_EMAIL: 't@e',
      GIT_COMMITTER_NAME: 't',
      GIT_COMMITTER_EMAIL: 't@e',
    },
  });
}

function oracle(shellTool: Extract<BuiltinBackend, { model: 'oracle' }>['shellTool']): BuiltinBackend {
  return { kind: 'builtin', model: 'oracle', commands: REFERENCE, finalText: 'Fixed on topic.', shellTool };
}

describe('the oracle through the gateway', () => {
  it(
    "plays the reference solution through Claude Code's Bash " + 'tool {command}, one command a call, then answers',
    async () => {
      h = await startHarness({
        backend: oracle({ name: 'Bash', toArguments: (command) => ({ command, description: 'reference step' }) }),
        budget: {},
      });
      const tools: Anthropic.Tool[] = [
        {
          name: 'Read',
          description: 'Read a file',
          input_schema: { type: 'object', properties: { path: { type: 'string' } } },
        },
        {
          name: 'Bash',
          description: 'Run a command',
          input_schema: { type: 'object', properties: { command: { type: 'string' } } },
        },
      ];
      const messages: Anthropic.MessageParam[] = [{ role: 'user', content: 'Fix a.txt on a topic branch.' }];
      const played: string[] = [];
      for (let turn = 0; turn < 10; turn++) {
        const answer = await h
          .anthropic()
          .messages.stream({ model: 'claude-x', max_tokens: 1000, messages, tools })
          .finalMessage();
        messages.push({ role: 'assistant', content: answer.content });
        if (answer.stop_reason === 'end_turn') break;
        const use = answer.content.find((b) => b.type === 'tool_use')!;
        expect(use).toMatchObject({ name: 'Bash', input: { description: 'reference step' } });
        const command = (use.input as { command: string }).command;
        played.push(command);
        messages.push({ role: 'user', content: [{ type: 'tool_result', tool_use_id: use.id, content: run(command) }] });
        // A side question in between (Claude Code asks one for a title): answered in words, the play does not move on.
        if (turn === 0) {
          const side = await h.anthropic().messages.create({
            model: 'haiku',
            max_tokens: 50,
            messages: [{ role: 'user', content: 'Title for this session?' }],
          });
          expect(side.content).toEqual([{ type: 'text', text: 'Fixed on topic.', citations: null }]);
        }
      }
      expect(played).toEqual(REFERENCE);
      expect(messages.at(-1)).toEqual({
        role: 'assistant',
        content: [{ type: 'text', text: 'Fixed on topic.', citations: null }],
      });
      expect(run('git branch --show-current').trim()).toBe('topic');
      expect(run('git log --format=%s').trim().split('\n')).toEqual(['Fix a', 'start']);
      // The records rebuild into the reference solution's steps and the closing answer; the side question is left out.
      const steps = callsToTrajectory(h.gateway.calls());
      expect(steps.map((s) => s.toolCalls.map((c) => (c.arguments as { command: string }).command))).toEqual([
        [REFERENCE[0]],
        [REFERENCE[1]],
        [REFERENCE[2]],
        [],
      ]);
      expect(steps.at(-1)!.message.content).toBe('Fixed on topic.');
      expect(h.gateway.calls()[0]).toMatchObject({ model: 'oracle', inputTokens: null, costUsd: null });
    },
  );

  it("plays through Codex's shell tool {command: [...]} over the Responses API, streamed", async () => {
    h = await startHarness({
      backend: oracle({ name: 'shell', toArguments: (command) => ({ command: ['bash', '-lc', command] }) }),
      budget: {},
    });
    const tools: OpenAI.Responses.FunctionTool[] = [
      {
        type: 'function',
        name: 'shell',
        description: 'Run a command',
        parameters: { type: 'object', properties: { command: { type: 'array', items: { type: 'string' } } } },
        strict: false,
      },
    ];
    const input: OpenAI.Responses.ResponseInputItem[] = [{ role: 'user', content: 'Fix a.txt on a topic branch.' }];
    for (let turn = 0; turn < 10; turn++) {
      const answer = await h
        .openai()
        .responses.stream({ model: 'gpt-5-codex', input, tools, store: false })
        .finalResponse();
      const call = answer.output.find((o) => o.type === 'function_call');
      if (!call) {
        expect(answer.output_text).toBe('Fixed on topic.');
        break;
      }
      const argv = (JSON.parse(call.arguments) as { command: string[] }).command;
      expect(argv.slice(0, 2)).toEqual(['bash', '-lc']);
      input.push(call, { type: 'function_call_output', call_id: call.call_id, output: run(argv[2]!) });
    }
    expect(run('git log --format=%s topic').trim().split('\n')).toEqual(['Fix a', 'start']);
    expect(h.gateway.calls()).toHaveLength(4);
  });

  it('refuses, naming the tools, a request that offers tools but not the shell tool', async () => {
    h = await startHarness({ backend: oracle({ name: 'Bash', toArguments: (command) => ({ command }) }), budget: {} });
    const e = await failure(
      h.openai().chat.completions.create({
        model: 'm',
        messages: [{ role: 'user', content: 'go' }],
        tools: [{ type: 'function', function: { name: 'read_file', parameters: {} } }],
      }),
    );
    expect(e.status).toBe(400);
    expect(e.error).toMatchObject({
      message:
        "the oracle plays through the shell tool 'Bash', which this request does not offer (it offers read_file)",
    });
    expect(h.gateway.calls()[0]).toMatchObject({ errorKind: 'builtin', status: 400 });
  });
});

describe('nop through the gateway', () => {
  it('ends at once, with no tool call', async () => {
    h = await startHarness({ backend: { kind: 'builtin', model: 'nop' }, budget: {} });
    const answer = await h.openai().chat.completions.create({
      model: 'm',
      messages: [{ role: 'user', content: 'go' }],
      tools: [{ type: 'function', function: { name: 'bash', parameters: {} } }],
    });
    expect(answer.choices[0]).toMatchObject({ finish_reason: 'stop', message: { content: '' } });
    expect(answer.choices[0]!.message.tool_calls).toBeUndefined();
    expect(callsToTrajectory(h.gateway.calls())).toHaveLength(1);
  });
});
