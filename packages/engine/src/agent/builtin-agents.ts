import {
  agentScoredOn,
  callAsTextBlock,
  findTool,
  getScorer,
  ggbReferenceToolCalls,
  shellQuote,
  textProtocolReply,
  UNKNOWN_COST,
  type Difficulty,
  type Fixture,
  type ToolSet,
} from '@gitbench/core';
import {
  builtinKindOf,
  DEFAULT_SIMULATED_CORRECTNESS,
  seededUniform,
  simulatedSeedOf,
  type AgentChatRequest,
  type AgentChatResult,
  type AgentModel,
  type AgentToolCall,
  type RouteMetadata,
} from '@gitbench/providers';

/**
 * Agents that need no model, played through the same loop and the same tools as a model:
 * `oracle` reaches the reference solution (the fixture's reference commands through bash, resolved
 * files through the editor, the expected answer through submit), `nop` submits without acting, and
 * `simulated:<seed>` looks around for a seeded number of steps, sometimes errs, and is right with a
 * probability per difficulty. Their turns are scripted up front; a text-protocol run gets them as
 * fenced bash blocks.
 */

export interface BuiltinAgentInput {
  fixture: Fixture;
  /** The correct answer for this repository (commit ids looked up in the snapshot). */
  reference: string;
  toolSet: ToolSet;
  trial?: number;
}

type Turn = { calls: { name: string; args: Record<string, unknown> }[]; text?: string } | { calls: []; text: string };

const EXPLORE = [
  'git status --short --branch',
  'git log --oneline -n 10',
  'git branch -a',
  'ls -la',
  'git stash list',
  'git diff --stat',
  'git log --all --graph --oneline -n 15',
];
const MISTAKES = ['git show no-such-ref', 'cat no-such-file.txt', 'git checkout definitely-missing-branch'];

function b64(text: string): string {
  return Buffer.from(text, 'utf8').toString('base64');
}

/** The turns that make the fixture's reference change in the repository, with the tools the set has. */
function referenceTurns(fixture: Fixture, reference: string, toolSet: ToolSet): Turn[] {
  const turns: Turn[] = [];
  const hasBash = findTool(toolSet, 'bash') !== undefined;
  const hasWrite = findTool(toolSet, 'write_file') !== undefined;
  if (agentScoredOn(fixture) !== 'repository') return turns;
  // A family that ships its reference as calls of its own tools (GitGoodBench) is solved with them.
  const ownCalls = ggbReferenceToolCalls(fixture);
  if (ownCalls && ownCalls.every((c) => findTool(toolSet, c.name))) return ownCalls.map((c) => ({ calls: [c] }));
  if (fixture.scoring.type === 'resolved_file_blocks' && hasWrite) {
    const files = (fixture.scoring.expected_files ?? {}) as Record<string, string>;
    return Object.entries(files).map(([path, content]) => ({
      calls: [{ name: 'write_file', args: { path, content } }],
    }));
  }
  if (!hasBash) return turns;
  return referenceShellCommands(fixture, reference).map((command) => ({
    calls: [{ name: 'bash', args: { command } }],
  }));
}

/**
 * The reference solution as shell commands, one per call: what the oracle runs through a shell tool
 * (ours, or a third-party agent's own, played by the model gateway). None for a fixture scored on
 * its answer: the answer is the whole solution.
 */
export function referenceShellCommands(fixture: Fixture, reference: string): string[] {
  if (agentScoredOn(fixture) !== 'repository') return [];
  if (fixture.scoring.type === 'resolved_file_blocks') {
    const files = (fixture.scoring.expected_files ?? {}) as Record<string, string>;
    return Object.entries(files).map(
      ([path, content]) => `printf %s '${b64(content)}' | base64 -d > ${shellQuote(path)}`,
    );
  }
  return getScorer(fixture.scoring.type).plan(fixture, reference)?.answerCommands ?? [];
}

function route(kind: string, simulated: boolean): RouteMetadata {
  return {
    provider: kind,
    profile: 'builtin',
    baseUrl: null,
    requestedModel: kind,
    servedModel: null,
    responseId: null,
    upstreamProvider: null,
    simulated,
  };
}

/** A scripted agent: each chat() answers the next turn; past the script it submits again. */
function scripted(
  name: string,
  kind: string,
  turns: Turn[],
  simulated: boolean,
  tokens?: (turn: number) => { input: number; output: number },
): AgentModel {
  let next = 0;
  return {
    name,
    kind,
    simulated,
    chat(request: AgentChatRequest): Promise<AgentChatResult> {
      const n = next++;
      const turn: Turn = turns[Math.min(n, turns.length - 1)] ?? { calls: [{ name: 'submit', args: { answer: '' } }] };
      let content: string | null = turn.text ?? null;
      let toolCalls: AgentToolCall[] = turn.calls.map((c, i) => ({
        id: `${kind}_${n}_${i}`,
        name: c.name,
        arguments: JSON.stringify(c.args),
      }));
      if (request.protocol === 'text' && toolCalls.length > 0) {
        const c = turn.calls[0]!;
        const block =
          callAsTextBlock(c.name, c.args) ??
          (c.name === 'write_file'
            ? `mkdir -p "$(dirname '${String(c.args.path)}')" && printf %s ` +
              `'${b64(String(c.args.content))}' | base64 -d > '${String(c.args.path)}'`
            : 'true');
        content = textProtocolReply(content, block);
        toolCalls = [];
      }
      const t = tokens?.(n);
      return Promise.resolve({
        content,
        reasoning: null,
        toolCalls,
        finishReason: toolCalls.length > 0 ? 'tool_calls' : 'stop',
        usage: t
          ? { inputTokens: t.input, outputTokens: t.output, reasoningTokens: 0, totalTokens: t.input + t.output }
          : { inputTokens: null, outputTokens: null, reasoningTokens: null, totalTokens: null },
        cost: UNKNOWN_COST,
        apiDurationMs: 0,
        retries: [],
        route: route(kind, simulated),
      });
    },
  };
}

const submit = (answer: string): Turn => ({ calls: [{ name: 'submit', args: { answer } }] });

export function oracleAgent(input: BuiltinAgentInput): AgentModel {
  const turns: Turn[] = [];
  if (findTool(input.toolSet, 'bash'))
    turns.push({ calls: [{ name: 'bash', args: { command: 'git status --short --branch' } }] });
  turns.push(...referenceTurns(input.fixture, input.reference, input.toolSet), submit(input.reference));
  return scripted('oracle', 'oracle', turns, false);
}

export function nopAgent(): AgentModel {
  return scripted('nop', 'nop', [submit('')], false);
}

/**
 * A seeded stand-in: 0-5 looks around (some failing), a format slip now and then, then the reference
 * solution with the probability of its difficulty, or a wrong answer / a half-done change. Labelled
 * simulated wherever it appears.
 */
export function simulatedAgent(seed: string, input: BuiltinAgentInput): AgentModel {
  const key = [seed, input.fixture.domain, input.fixture.id, input.trial ?? 0];
  const u = (what: string, i = 0) => seededUniform('agent', what, i, ...key);
  const difficulty = (input.fixture.difficulty ?? 'unspecified') as Difficulty;
  const correct = u('correct') < (DEFAULT_SIMULATED_CORRECTNESS[difficulty] ?? 0.65);
  const hasBash = findTool(input.toolSet, 'bash') !== undefined;
  const turns: Turn[] = [];
  const looks = Math.floor(u('looks') * 6);
  for (let i = 0; i < looks && hasBash; i++) {
    const mistake = u('mistake', i) < 0.2;
    const list = mistake ? MISTAKES : EXPLORE;
    turns.push({ calls: [{ name: 'bash', args: { command: list[Math.floor(u('cmd', i) * list.length)]! } }] });
    if (u('slip', i) < 0.08) turns.push({ calls: [], text: 'Let me think about what to do next.' });
  }
  const reference = referenceTurns(input.fixture, input.reference, input.toolSet);
  if (correct) turns.push(...reference, submit(input.reference));
  else if (reference.length > 1 && u('partial') < 0.5)
    turns.push(...reference.slice(0, Math.floor(reference.length / 2)), submit(''));
  else turns.push(submit('I could not find it.'));
  return scripted(`simulated (seed ${seed})`, 'simulated', turns, true, (n) => ({
    input: 900 + 350 * n,
    output: 40 + Math.floor(u('out', n) * 160),
  }));
}

/** The built-in agent a model id names, or null for a real model (which brings its own AgentModel). */
export function builtinAgent(modelName: string, input: BuiltinAgentInput): AgentModel | null {
  const kind = builtinKindOf(modelName);
  switch (kind) {
    case 'oracle':
      return oracleAgent(input);
    case 'nop':
    case 'mock':
      return nopAgent();
    case 'simulated':
      return simulatedAgent(simulatedSeedOf(modelName), input);
    // A replay plays its recorded ATIF trajectory through the provider's own chat (see agentModelFor).
    case 'replay':
    case null:
      return null;
  }
}
