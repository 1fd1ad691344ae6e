import { describe, expect, it } from 'vitest';
import { CommanderError } from 'commander';
import { choiceFlag, listFlag, UsageError } from '../src/args';
import { parseCommandLine } from '../src/program';
import { outputPath, parseRunArgs as parseRunOptions } from '../src/run-options';

/** `gitbench run`'s options from its command line, as main.ts hands them over. */
const parseRunArgs = (argv: string[]) => parseRunOptions(parseCommandLine(['run', ...argv]).args);
const exportArgs = (argv: string[]) => parseCommandLine(['campaign', 'export', 'cmp_1', ...argv]).args;

describe('gitbench run arguments', () => {
  it('takes any model id with its effort and passes the overrides to the registry', () => {
    const opts = parseRunArgs([
      'suite',
      '--model',
      'openai/o3-mini#high',
      '--provider',
      'openrouter',
      '--base-url',
      'https://openrouter.ai/api/v1',
      '--profile',
      'or',
      '--judge-profile',
      'judges',
    ]);
    expect(opts).toMatchObject({
      dir: 'suite',
      target: {
        model: 'openai/o3-mini#high',
        provider: 'openrouter',
        baseUrl: 'https://openrouter.ai/api/v1',
        profile: 'or',
      },
      judgeProfile: 'judges',
      outputModes: ['text'],
      trials: 1,
      workers: 2,
      json: false,
    });
    expect(parseRunArgs(['s', '--model=qwen3:high']).target).toEqual({ model: 'qwen3:high' });
    expect(parseRunArgs(['s', '--model', 'replay:/r/a.json,/r/b.json', '--output-mode', 'both']).outputModes).toEqual([
      'text',
      'json_schema',
    ]);
    expect(
      parseRunArgs(['s', '--model', 'simulated:7', '--trials', '3', '--json', '--json-output', 'out.json']),
    ).toMatchObject({ trials: 3, json: true, jsonOutput: 'out.json' });
  });

  it('rejects, naming the flag, what no registry lookup could fix', () => {
    const bad = (argv: string[], message: RegExp) => expect(() => parseRunArgs(argv)).toThrow(message);
    bad(['suite'], /--model <id> is required/);
    bad(['--model', 'mock'], /missing required argument 'dir'/);
    bad(['a', 'b', '--model', 'mock'], /too many arguments for 'run'/);
    bad(['s', '--model', 'o3#turbo'], /--model: .*'turbo' is not a reasoning effort/);
    bad(['s', '--model', 'm', '--provider', 'azure'], /--provider must be one of openai, openrouter, ollama/);
    bad(['s', '--model', 'm', '--base-url', 'localhost:11434'], /--base-url must be an http\(s\) URL/);
    bad(['s', '--model', 'm', '--output-mode', 'yaml'], /--output-mode must be text, json_schema or both/);
    bad(['s', '--model', 'm', '--trials', '0'], /--trials must be an integer ≥ 1/);
    bad(['s', '--model', 'm', '--api-key', 'sk-123'], /unknown option '--api-key'/);
    expect(() => parseRunArgs(['s', '--model'])).toThrow(CommanderError);
    expect(() => parseRunArgs(['s', '--model', 'm', '--trials', 'x'])).toThrow(UsageError);
  });

  it('names one output file per output mode and trial', () => {
    expect(outputPath('out.json', 'text', 1, 1, 1)).toBe('out.json');
    expect(outputPath('out.json', 'json_schema', 2, 2, 3)).toBe('out-json_schema-trial2.json');
    expect(outputPath('out', 'text', 1, 2, 1)).toBe('out-text');
  });
});

describe('repeatable and restricted flags', () => {
  it('collects repeated and comma-separated values, keeping commas where asked', () => {
    const args = parseCommandLine([
      'campaign',
      'create',
      '--tag',
      'a,b',
      '--tag=c',
      '--model',
      'replay:x.json,y.json',
      '--model',
      'mock',
    ]).args;
    expect(listFlag(args, 'tag')).toEqual(['a', 'b', 'c']);
    expect(listFlag(args, 'model', { commas: false })).toEqual(['replay:x.json,y.json', 'mock']);
    expect(listFlag(args, 'domain')).toEqual([]);
    expect(choiceFlag(exportArgs(['--format', 'csv']), 'format', ['csv', 'json'])).toBe('csv');
    expect(() => choiceFlag(exportArgs(['--format', 'xml']), 'format', ['csv', 'json'])).toThrow(
      /--format must be one of csv, json, got xml/,
    );
  });
});

describe('gitbench run --mode agent', () => {
  it('takes the agent configuration from its flags, checked like a campaign configuration', () => {
    const opts = parseRunArgs([
      'fixtures',
      '--mode',
      'agent',
      '--model',
      'oracle',
      '--tool-set',
      'bash',
      '--max-turns',
      '8',
      '--protocol',
      'text',
    ]);
    expect(opts.agent).toMatchObject({
      toolSet: 'bash',
      protocol: 'text',
      limits: { maxTurns: 8, commandTimeoutMs: 30_000 },
    });
    expect(parseRunArgs(['fixtures', '--mode', 'agent', '--model', 'nop']).agent).toMatchObject({
      toolSet: 'default',
      protocol: 'auto',
    });
    expect(parseRunArgs(['fixtures', '--model', 'nop']).agent).toBeUndefined();
    expect(() => parseRunArgs(['fixtures', '--model', 'nop', '--tool-set', 'bash'])).toThrow(
      /--tool-set goes with --mode agent/,
    );
    expect(() => parseRunArgs(['fixtures', '--mode', 'agent', '--model', 'nop', '--tool-set', 'nope'])).toThrow(
      /unknown tool set 'nope'/,
    );
    expect(() => parseRunArgs(['fixtures', '--mode', 'agent', '--model', 'nop', '--protocol', 'smoke'])).toThrow(
      /--mode agent: protocol/,
    );
    // The same section and messages as `gitbench campaign create` (agent-flags.ts): the field is named.
    expect(() => parseRunArgs(['fixtures', '--mode', 'agent', '--model', 'nop', '--max-turns', 'x'])).toThrow(
      /--mode agent: limits\.maxTurns/,
    );
    expect(() => parseRunArgs(['fixtures', '--mode', 'agent', '--model', 'nop', '--command-timeout-ms', '5'])).toThrow(
      /limits\.commandTimeoutMs/,
    );
  });
});
