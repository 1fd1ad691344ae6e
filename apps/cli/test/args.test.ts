import { CommanderError } from 'commander';
import { describe, expect, it } from 'vitest';
import { intFlag, UsageError } from '../src/args';
import { COMMAND_SPECS, parseCommandLine } from '../src/program';

/** What commander said and how it ended, for a command line that does not reach a command. */
function refused(argv: string[]): { code: string; exitCode: number; said: string } {
  let said = '';
  try {
    parseCommandLine(argv, (text) => (said += text));
  } catch (err) {
    if (!(err instanceof CommanderError)) throw err;
    return { code: err.code, exitCode: err.exitCode, said };
  }
  throw new Error(`${argv.join(' ')} was accepted`);
}

describe('the command line (commander)', () => {
  it('reads positionals, valued flags in both spellings, repeated flags and switches', () => {
    const { path, args } = parseCommandLine(['selfcheck', 'dir', '--runs', '3', '--json', '--workers=4']);
    expect(path).toBe('selfcheck');
    expect(args.positionals).toEqual(['dir']);
    expect(intFlag(args, 'runs', 1)).toBe(3);
    expect(intFlag(args, 'workers', 2)).toBe(4);
    expect(args.flags.get('json')).toBe(true);
    const create = parseCommandLine(['campaign', 'create', '--model', 'a', '--model=b', '--seed', '-1']).args;
    expect(create.lists.get('model')).toEqual(['a', 'b']);
    expect(create.flags.get('model')).toBe('b');
    // A required value is taken even when it starts with a dash.
    expect(create.flags.get('seed')).toBe('-1');
  });

  it('refuses unknown options with a suggestion, and missing values and arguments, as usage errors', () => {
    const typo = refused(['run', 'fixtures', '--model', 'oracle', '--jsn']);
    expect(typo.code).toBe('commander.unknownOption');
    expect(typo.said).toMatch(/unknown option '--jsn'[\s\S]*Did you mean --json\?/);
    expect(refused(['run', 'fixtures', '--model', 'oracle', '--max-turn', '3']).said).toMatch(
      /Did you mean --max-turns\?/,
    );
    expect(refused(['campaign', 'create', '--tool-sets', 'bash']).said).toMatch(/Did you mean --tool-set\?/);
    expect(refused(['campagin', 'status']).said).toMatch(/unknown command 'campagin'[\s\S]*Did you mean campaign\?/);
    expect(refused(['selfcheck', 'dir', '--runs']).said).toMatch(/option '--runs <n>' argument missing/);
    expect(refused(['campaign', 'status']).said).toMatch(/missing required argument 'campaign-id'/);
    expect(refused(['list', 'a', 'b']).said).toMatch(/too many arguments/);
    expect(() => intFlag(parseCommandLine(['selfcheck', 'd', '--runs', '0']).args, 'runs', 1)).toThrow(UsageError);
  });

  it('gives every command and subcommand its own --help, listing its options', () => {
    for (const spec of COMMAND_SPECS) {
      const help = refused([...spec.path.split(' '), '--help']);
      expect(help, spec.path).toMatchObject({ code: 'commander.helpDisplayed', exitCode: 0 });
      expect(help.said, spec.path).toContain(`Usage: gitbench ${spec.path}`);
      for (const [flags] of spec.options) expect(help.said, spec.path).toContain(flags);
    }
    const run = refused(['run', '--help']).said;
    for (const flag of [
      '--mode <mode>',
      '--tool-set <name>',
      '--protocol <protocol>',
      '--max-turns <n>',
      '--command-timeout-ms <n>',
    ])
      expect(run).toContain(flag);
    const create = refused(['campaign', 'create', '--help']).said;
    for (const flag of ['--mode <mode>', '--agent <name>', '--tool-set <name>', '--max-turns <n>'])
      expect(create).toContain(flag);
    // `gitbench help run` says the same as `gitbench run --help`.
    expect(refused(['help', 'run']).said).toBe(run);
  });
});
