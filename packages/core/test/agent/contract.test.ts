import { describe, expect, it } from 'vitest';
import {
  AGENT_EXIT_STATUSES,
  agentConfigSchema,
  agentScoredOn,
  exitStatusIsCounted,
  exitStatusIsLimit,
  exitStatusIsScored,
  resolveToolSet,
  trajectoryStepSchema,
} from '../../src/agent';
import { parseFixtureFile, type FixtureError } from '../../src/fixtures';

const BASE = `id: f001
description: Tag the release
difficulty: easy
setup:
  - git init
prompt: Tag HEAD as v1.
expected: git tag v1
scoring:
  type: state_assertions
  expected_state:
    assertions:
      - type: git_output
        command: git tag -l
        contains: v1
`;

function parse(extra: string) {
  const result = parseFixtureFile({ path: 'tags/f001.yaml', text: BASE + extra, domain: 'tags' });
  const [fixture] = result.fixtures;
  return result.errors.length === 0 && fixture
    ? { ok: true as const, fixture }
    : { ok: false as const, errors: result.errors };
}

describe('agent configuration', () => {
  it('fills every default, so two configurations that differ only by omission hash alike', () => {
    const config = agentConfigSchema.parse({});
    expect(config).toEqual(agentConfigSchema.parse({ toolSet: 'default', protocol: 'auto', limits: {} }));
    expect(config.limits.maxTurns).toBe(30);
    expect(config.limits.maxCostUsd).toBeNull();
  });

  it('names the field of a bad limit and refuses unknown keys', () => {
    const bad = agentConfigSchema.safeParse({ limits: { maxTurns: 0, maxTurn: 3 } });
    expect(bad.success).toBe(false);
    const paths = bad.error!.issues.map((i) => [...i.path, ...('keys' in i ? i.keys : [])].join('.'));
    expect(paths).toContain('limits.maxTurns');
    expect(paths).toContain('limits.maxTurn');
  });
});

describe('exit statuses', () => {
  it(
    'excludes exactly the two infrastructure exits and a ' +
      'cancel from quality figures, and counts tampering unscored',
    () => {
      expect(AGENT_EXIT_STATUSES.filter((s) => !exitStatusIsCounted(s))).toEqual([
        'model_error',
        'sandbox_error',
        'cancelled',
      ]);
      expect(AGENT_EXIT_STATUSES.filter((s) => !exitStatusIsScored(s))).toEqual([
        'model_error',
        'sandbox_error',
        'tampering',
        'cancelled',
      ]);
      expect(AGENT_EXIT_STATUSES.filter(exitStatusIsLimit)).toEqual([
        'turn_limit',
        'token_limit',
        'cost_limit',
        'time_limit',
      ]);
    },
  );
});

describe("a fixture's agent section", () => {
  it('defaults by scoring type and can be overridden', () => {
    const plain = parse('');
    expect(plain.ok && agentScoredOn(plain.fixture)).toBe('repository');
    const overridden = parse('agent:\n  prompt: Tag it, then submit.\n  tool_set: bash\n  scored_on: answer\n');
    if (!overridden.ok) throw new Error(JSON.stringify(overridden.errors));
    expect(agentScoredOn(overridden.fixture)).toBe('answer');
    expect(resolveToolSet(overridden.fixture, 'default')).toBe('bash');
    expect(resolveToolSet(overridden.fixture, 'bash+editor')).toBe('bash+editor');
    expect(resolveToolSet(plain.ok ? plain.fixture : overridden.fixture, 'default')).toBe('bash+editor');
  });

  it('names the line and field of a bad value', () => {
    const result = parse('agent:\n  scored_on: repo\n');
    expect(result.ok).toBe(false);
    const errors = (result as { errors: FixtureError[] }).errors;
    expect(errors[0]).toMatchObject({ field: 'agent.scored_on', line: 16 });
    expect(errors[0]!.message).toContain('repository, answer');
  });
});

describe('trajectory step record', () => {
  const step = {
    index: 0,
    startedAt: '2026-11-23T10:00:00.000Z',
    finishedAt: '2026-11-23T10:00:01.000Z',
    modelMs: 800,
    toolMs: 12,
    channel: 'native',
    message: { content: null, reasoning: 'look first' },
    toolCalls: [
      {
        id: 'c1',
        name: 'bash',
        rawArguments: '{"command":"git status"}',
        arguments: { command: 'git status' },
        parseError: null,
      },
    ],
    results: [
      {
        callId: 'c1',
        name: 'bash',
        isError: false,
        exitCode: 0,
        timedOut: false,
        durationMs: 9,
        output: 'clean',
        outputBytes: 5,
        truncatedBytes: 0,
      },
    ],
    usage: {
      inputTokens: 100,
      outputTokens: 20,
      reasoningTokens: null,
      totalTokens: 120,
      costUsd: null,
      costEstimated: false,
    },
    finishReason: 'tool_calls',
    retries: 0,
    formatStrike: false,
    runtimeNote: null,
    repo: {
      head: 'abc',
      branch: 'main',
      staged: 0,
      unstaged: 0,
      untracked: 0,
      conflicted: 0,
      operations: [],
      refsChanged: [],
      diff: '',
      diffBytes: 0,
      diffTruncatedBytes: 0,
    },
  };

  it('round-trips through JSON', () => {
    expect(trajectoryStepSchema.parse(JSON.parse(JSON.stringify(step)))).toEqual(step);
  });

  it('refuses a record written by guesswork', () => {
    expect(trajectoryStepSchema.safeParse({ ...step, tokens: 3 }).success).toBe(false);
    expect(trajectoryStepSchema.safeParse({ ...step, channel: 'xml' }).success).toBe(false);
  });
});
