import { Command, CommanderError, Option } from 'commander';
import { AGENT_FLAG_HELP } from './agent-flags';
import type { ParsedArgs } from './args';

/**
 * The command line's grammar, through commander: every command and subcommand with its options, its
 * own `--help`, and "did you mean" suggestions for unknown commands and options. Commander only
 * reads argv here; what the values mean (numbers, choices, URLs) the commands check themselves, with
 * the messages the configuration schema and the API share. Each command's module is loaded only when
 * it runs (main.ts): right after `npm ci` the database client is not generated yet, and the commands
 * that need no database must not load it.
 */

/** A command's path (`run`, `campaign create`) and its arguments as the commands read them. */
export interface Invocation {
  path: string;
  args: ParsedArgs;
}

/** Every valued option may be repeated (`--model a --model b`): the commands read the last or all values. */
function collect(value: string, previous: unknown): string[] {
  return [...((previous as string[] | undefined) ?? []), value];
}

/** `--name <value>` options collect their values; `--name` alone is a switch. */
function options(cmd: Command, specs: readonly (readonly [flags: string, description: string])[]): Command {
  for (const [flags, description] of specs) {
    const option = new Option(flags, description);
    if (option.required || option.optional) option.argParser(collect);
    cmd.addOption(option);
  }
  return cmd;
}

/** Commander's result as the commands' ParsedArgs: positionals, the last value of each flag and every value. */
export function parsedArgsOf(cmd: Command): ParsedArgs {
  const flags = new Map<string, string | true>();
  const lists = new Map<string, string[]>();
  for (const option of cmd.options) {
    const value: unknown = cmd.getOptionValue(option.attributeName());
    if (value === undefined || !option.long) continue;
    const name = option.long.slice(2);
    if (Array.isArray(value)) {
      lists.set(name, value as string[]);
      flags.set(name, (value as string[]).at(-1)!);
    } else if (value === true) flags.set(name, true);
  }
  return { positionals: [...cmd.args], flags, lists };
}

const JSON_FLAG = ['--json', 'print JSON instead of text'] as const;
const WORKERS = ['--workers <n>', 'sandboxes run at once (default 2)'] as const;
const SANDBOX = ['--sandbox <kind>', 'docker (default) or local (no isolation: runs commands on this host)'] as const;

/** The campaign's fixture selection, shared by run and selfcheck. */
const SELECTION = [
  ['--domain <d>', 'only these domains (repeatable, or comma-separated)'],
  ['--difficulty <d>', 'only these difficulties'],
  ['--tag <t>', 'only fixtures with these tags'],
  ['--id <domain/id>', 'only these fixtures (repeatable, or comma-separated)'],
] as const;

export const RUN_OPTIONS = [
  [
    '--model <id>',
    'oracle, nop, mock, simulated[:seed], replay:<file or dir>, or a model a profile lists (effort: model#high)',
  ],
  ['--provider <kind>', 'openai, openrouter, ollama, ...: reach a model no profile lists'],
  ['--base-url <url>', "the provider's endpoint"],
  ['--profile <name>', 'the profile to take the model from'],
  ['--judge-profile <name>', 'judge llm_judge fixtures with this profile (otherwise they stay unscored)'],
  ['--output-mode <mode>', 'text, json_schema or both (single answers)'],
  ['--mode <mode>', 'agent: the model works in the sandbox through tools (or text, json_schema, both)'],
  [
    '--agent <name>',
    'with --mode agent: a third-party agent (claude-code, codex, pi, opencode; gitbench agents) instead of our loop',
  ],
  ...AGENT_FLAG_HELP,
  ['--trials <n>', 'runs of every fixture (default 1)'],
  ...SELECTION,
  ['--json-output <file>', "write upstream's result file (one per output mode and trial)"],
  WORKERS,
  SANDBOX,
  JSON_FLAG,
] as const;

export const CAMPAIGN_CREATE_OPTIONS = [
  ['--config <file>', 'the whole configuration as JSON (replaces the flags below)'],
  ['--name <name>', 'campaign name'],
  ['--model <id>', 'a model (repeat for more)'],
  ['--output-mode <mode>', 'text, json_schema, agent or both (repeatable)'],
  ['--mode <mode>', 'agent: run the campaign as agents (or an output mode)'],
  [
    '--agent <name>',
    'with --mode agent: an agent that drives every model (repeat for more): ' +
      'gitbench (our own loop, the default) or a third-party agent (gitbench agents)',
  ],
  ...AGENT_FLAG_HELP,
  ['--trials <n>', 'runs of every fixture'],
  ['--fixtures <dir>', 'suite directory'],
  ['--suite-version <v>', 'the suite version expected'],
  ['--domain <d>', 'only these domains (repeatable, or comma-separated)'],
  ['--difficulty <d>', 'only these difficulties'],
  ['--tag <t>', 'only fixtures with these tags'],
  ['--id <domain/id>', 'only these fixtures'],
  ['--seed <n>', 'seed of simulated models and of the order'],
  ['--judge-profile <name>', 'profile that judges llm_judge fixtures'],
  ['--concurrency <n>', 'attempts of this campaign run at once'],
  ['--created-by <who>', 'who the campaign is recorded as created by'],
  ['--dry-run', 'count the attempts and print the configuration hash, write nothing'],
  ['--wait', 'follow the campaign; exit 0 only if it completes'],
  JSON_FLAG,
] as const;

interface Spec {
  path: string;
  args?: string;
  summary: string;
  options: readonly (readonly [string, string])[];
}

const CAMPAIGN_ID = '<campaign-id>';

/** Every command the CLI has, as `gitbench --help` lists them (main.ts maps each path to its module). */
export const COMMAND_SPECS: readonly Spec[] = [
  {
    path: 'validate',
    args: '<dir>',
    summary: 'check every fixture file of a suite',
    options: [['--strict', 'also report forms that let wrong answers pass'], JSON_FLAG],
  },
  { path: 'list', args: '<dir>', summary: 'count fixtures per domain and difficulty', options: [JSON_FLAG] },
  {
    path: 'selfcheck',
    args: '<dir>',
    summary: "score every fixture's expected answer and negatives in sandboxes (--id: only those fixtures)",
    options: [
      ['--runs <n>', 'builds of every fixture (their input hashes must agree)'],
      ...SELECTION,
      WORKERS,
      SANDBOX,
      JSON_FLAG,
    ],
  },
  {
    path: 'run',
    args: '<dir>',
    summary: 'run a model (or an agent) over a suite in local sandboxes, no services',
    options: RUN_OPTIONS,
  },
  {
    path: 'rescore',
    args: '<results...>',
    summary: 're-score upstream result files with our scorers and report agreement',
    options: [['--fixtures <dir>', 'the suite the results were made on'], WORKERS, SANDBOX, JSON_FLAG],
  },
  {
    path: 'manual',
    summary:
      'serve the manual model: a person answers every Chat Completions request, here or through its side channel',
    options: [
      ['--port <n>', 'port to serve on (default 4717; 0 picks a free one)'],
      ['--host <address>', 'address to serve on (default 127.0.0.1)'],
      ['--headless', 'answer only through the side channel (a program playing the model)'],
    ],
  },
  {
    path: 'human',
    args: '<dir>',
    summary: 'work one fixture yourself in its sandbox, as an agent would; stored as the target human:<name>',
    options: [
      ['--id <domain/id>', 'the fixture to work'],
      ['--name <name>', 'who is working it (default: $USER); the target is human:<name>'],
      ...AGENT_FLAG_HELP,
      SANDBOX,
      JSON_FLAG,
    ],
  },
  { path: 'profiles', summary: 'the built-in models and the configured profiles (never a key)', options: [JSON_FLAG] },
  { path: 'agents', summary: 'the third-party coding agents: name, pinned version, protocol', options: [JSON_FLAG] },
  { path: 'campaign', summary: "campaigns in PostgreSQL and the workers' queue (or the web API)", options: [] },
  { path: 'campaign create', summary: 'create (and optionally follow) a campaign', options: CAMPAIGN_CREATE_OPTIONS },
  {
    path: 'campaign status',
    args: CAMPAIGN_ID,
    summary: "a campaign's counts, completeness and per-target figures",
    options: [JSON_FLAG],
  },
  { path: 'campaign cancel', args: CAMPAIGN_ID, summary: 'cancel a campaign', options: [JSON_FLAG] },
  {
    path: 'campaign retry',
    args: CAMPAIGN_ID,
    summary: "queue a campaign's infrastructure failures again",
    options: [JSON_FLAG],
  },
  {
    path: 'campaign export',
    args: CAMPAIGN_ID,
    summary: "every attempt of a campaign (csv, json) or upstream's artificialanalysis rows (aa)",
    options: [
      ['--format <format>', 'csv (default), json or aa'],
      ['--output <file>', 'write here instead of stdout'],
    ],
  },
  {
    path: 'import-legacy',
    args: '<paths...>',
    summary: 'import upstream result files as legacy campaigns',
    options: [JSON_FLAG],
  },
  { path: 'trajectory', summary: "agent attempts' trajectories", options: [] },
  {
    path: 'trajectory export',
    args: '<attempt-id>',
    summary: "an agent attempt's trajectory as ATIF v1.4 JSON",
    options: [
      ['--format <format>', 'atif (the only one)'],
      ['--try <n>', 'that try instead of the latest'],
      ['--output <file>', 'write here instead of stdout'],
    ],
  },
  { path: 'user', summary: 'accounts, from a shell on the server', options: [] },
  {
    path: 'user create',
    summary: 'create a user (or give one a new password)',
    options: [
      ['--email <email>', 'the account'],
      ['--name <name>', 'display name (default: the part before @)'],
      ['--role <role>', 'viewer (default), member or admin'],
      ['--admin', 'same as --role admin'],
      ['--password-stdin', 'read the password from stdin instead of generating one'],
      ['--reset-password', 'give an existing user a new password'],
      JSON_FLAG,
    ],
  },
  { path: 'user list', summary: 'every user', options: [JSON_FLAG] },
  { path: 'keys', summary: 'stored provider keys', options: [] },
  {
    path: 'keys rotate',
    summary: 're-encrypt stored keys after GITBENCH_SECRET_KEY changed (GITBENCH_OLD_SECRET_KEY: the previous one)',
    options: [JSON_FLAG],
  },
];

/**
 * The program: `onAction` receives the command's path and arguments (main.ts runs it, tests read it).
 * Usage errors and help do not exit the process: commander throws a CommanderError the caller maps to
 * an exit code.
 */
export function buildProgram(rootHelp: string, onAction: (invocation: Invocation) => void | Promise<void>): Command {
  const program = new Command('gitbench')
    .exitOverride()
    .showSuggestionAfterError(true)
    .showHelpAfterError("(add --help for this command's usage)")
    .helpCommand(true);
  const byPath = new Map<string, Command>([['', program]]);
  for (const spec of COMMAND_SPECS) {
    const names = spec.path.split(' ');
    const parent = byPath.get(names.slice(0, -1).join(' '))!;
    const cmd = parent.command(names.at(-1)!).summary(spec.summary).description(spec.summary);
    if (spec.args) for (const arg of spec.args.split(' ')) cmd.argument(arg);
    options(cmd, spec.options);
    // Commands with subcommands only dispatch; the others hand their arguments over.
    if (!COMMAND_SPECS.some((s) => s.path.startsWith(`${spec.path} `))) {
      cmd.action(async (...received: unknown[]) =>
        onAction({ path: spec.path, args: parsedArgsOf(received.at(-1) as Command) }),
      );
    }
    byPath.set(spec.path, cmd);
  }
  // The overview keeps the hand-written synopsis (every command with its flags, exit codes); set after
  // the subcommands were made, so theirs stay commander's own.
  program.configureHelp({ formatHelp: () => rootHelp });
  return program;
}

/** A command line read without running anything (tests): what main.ts would hand to the command. */
export function parseCommandLine(argv: readonly string[], write: (text: string) => void = () => undefined): Invocation {
  let invocation: Invocation | undefined;
  const program = buildProgram('', (i) => {
    invocation = i;
  });
  const output = (cmd: Command): void => {
    cmd.configureOutput({ writeErr: write, writeOut: write });
    for (const sub of cmd.commands) output(sub);
  };
  output(program);
  program.parse([...argv], { from: 'user' });
  if (!invocation) throw new CommanderError(1, 'gitbench.noCommand', 'no command ran');
  return invocation;
}
