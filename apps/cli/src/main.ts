import { CommanderError } from 'commander';
import { UsageError, type ParsedArgs } from './args';
import type { CliEnv } from './env';
import { buildProgram } from './program';
import { EXIT, InfrastructureError, interruption } from './exit';

const HELP = `gitbench — measure how well models handle Git

Usage (every command has its own --help: gitbench run --help, gitbench campaign create --help):
  gitbench validate <dir> [--strict] [--json]
  gitbench list <dir> [--json]
  gitbench selfcheck <dir> [--runs N] [--workers N] [--sandbox docker|local] [--json]
  gitbench run <dir> --model <id> [--provider KIND] [--base-url URL] [--profile NAME]
                     [--judge-profile NAME] [--output-mode text|json_schema|both] [--trials N]
                     [--json-output FILE] [--workers N] [--sandbox docker|local] [--json]
                     [--mode agent [--agent NAME] [--tool-set NAME] [--protocol auto|native|text] [--max-turns N]
                      [--max-wall-ms N] [--command-timeout-ms N]]
  gitbench rescore <results.json...> --fixtures <dir> [--workers N] [--json]
  gitbench profiles [--json]
  gitbench agents [--json]   the third-party coding agents --agent runs (name, pinned version, protocol)
  gitbench manual [--port N] [--host ADDRESS] [--headless]
                     serve the manual model (a person answers); then --model manual reaches it

Campaigns (PostgreSQL and the workers' Redis queue on the server; or, with GITBENCH_URL and
GITBENCH_TOKEN set, the web app's HTTP API as the token's user):
  gitbench campaign create (--config FILE | --name NAME --model ID [--model ID ...]
                     [--output-mode text|json_schema|both] [--trials N] [--fixtures DIR]
                     [--mode agent [--agent NAME ...] [--tool-set NAME] [--protocol auto|native|text] [--max-turns N]
                      [--max-wall-ms N] [--command-timeout-ms N]]
                     [--suite-version V] [--domain D] [--difficulty D] [--tag T] [--id DOMAIN/ID] [--seed N]
                     [--judge-profile NAME] [--concurrency N] [--created-by WHO])
                     [--dry-run] [--wait] [--json]
  gitbench campaign status <id> [--json]
  gitbench campaign cancel <id> [--json]
  gitbench campaign retry <id> [--json]
  gitbench campaign export <id> [--format csv|json|aa] [--output FILE]
  gitbench import-legacy <result.json | dir>... [--json]
  gitbench human <dir> --id DOMAIN/ID [--name NAME] [--tool-set bash|bash+editor] [--max-turns N]
                     [--max-wall-ms N] [--command-timeout-ms N] [--json]
                     work a fixture yourself in its sandbox; stored as the target human:<name>
  gitbench trajectory export <attempt id> [--format atif] [--try N] [--output FILE]

Users (PostgreSQL, on the server; the first admin, or anyone):
  gitbench user create --email EMAIL [--name NAME] [--admin | --role viewer|member|admin]
                     [--password-stdin] [--reset-password] [--json]
  gitbench user list [--json]

Provider keys (stored encrypted under GITBENCH_SECRET_KEY; added on Settings → Provider keys):
  GITBENCH_OLD_SECRET_KEY=<previous> gitbench keys rotate [--json]   re-encrypt them after changing the secret

Models (--model): oracle, nop, mock, simulated[:seed], replay:<result file or dir>, manual (the
endpoint gitbench manual serves, at GITBENCH_MANUAL_URL or port 4717), or any model a
profile lists, with an optional reasoning effort: openai/o3-mini#high, qwen3:high. --provider
(openai, openrouter, ollama, ...) and --base-url reach a model no profile lists. Profiles come from
GITBENCH_PROFILES, else gitbench.json or .gitbench.json here, else ~/.gitbench.json; keys only from
the environment variables they name. A replayed run prints its agreement with the recorded verdicts.
llm_judge fixtures are judged only with --judge-profile; otherwise they are reported unscored.

Campaign commands read DATABASE_URL, REDIS_URL and GITBENCH_QUEUE (defaults as in the README) and
validate them before connecting. create prints the campaign id; an invalid configuration prints the
API's field errors and writes nothing; --wait follows the campaign and exits 0 only if it completes.
export formats: csv and json (one row per attempt), aa (upstream's artificialanalysis rows: one per
model, effort, output mode and domain). trajectory export writes an agent attempt's trajectory as
ATIF v1.4 JSON (Harbor / Terminal-Bench).

Sandboxes: Docker with the image in GITBENCH_SANDBOX_IMAGE; --sandbox local runs commands on this
host with no isolation (it says so on every sandbox it creates).
Exit codes: 0 ok, 1 a check failed (invalid fixture, self-check failure, disagreement, no such
campaign, nothing to cancel, a waited-for campaign incomplete), 2 usage, configuration or invalid
campaign configuration, 3 infrastructure (Docker, sandboxes, PostgreSQL, Redis unreachable).
`;

type Run = (args: ParsedArgs) => Promise<number>;

/** A campaign (or trajectory) command with the environment validated once, before it connects. */
const withEnv =
  (load: () => Promise<(args: ParsedArgs, env: CliEnv) => Promise<number>>): Run =>
  async (args) => {
    const [command, { readCliEnv }] = await Promise.all([load(), import('./env')]);
    return command(args, readCliEnv());
  };

/**
 * Each command's module is loaded only when it runs: right after `npm ci` the database client is not
 * generated yet, and the commands that need no database (validate, list, selfcheck, run, rescore,
 * profiles) must not load it; the sign-in library is heavy and only `user` needs it.
 */
const COMMANDS: Record<string, Run> = {
  validate: async (args) => (await import('./commands/validate')).validateCommand(args),
  list: async (args) => (await import('./commands/list')).listCommand(args),
  selfcheck: async (args) => (await import('./commands/selfcheck')).selfcheckCommand(args),
  run: async (args) => (await import('./commands/run')).runCommand(args),
  rescore: async (args) => (await import('./commands/rescore')).rescoreCommand(args),
  profiles: async (args) => (await import('./commands/profiles')).profilesCommand(args),
  agents: async (args) => (await import('./commands/agents')).agentsCommand(args),
  manual: async (args) => (await import('./commands/manual')).manualCommand(args),
  human: withEnv(async () => (await import('./commands/human')).humanCommand),
  'campaign create': withEnv(async () => (await import('./commands/campaign-create')).campaignCreateCommand),
  'campaign status': withEnv(async () => (await import('./commands/campaign-status')).campaignStatusCommand),
  'campaign cancel': withEnv(async () => (await import('./commands/campaign-cancel')).campaignCancelCommand),
  'campaign retry': withEnv(async () => (await import('./commands/campaign-retry')).campaignRetryCommand),
  'campaign export': withEnv(async () => (await import('./commands/campaign-export')).campaignExportCommand),
  'import-legacy': withEnv(async () => (await import('./commands/import-legacy')).importLegacyCommand),
  'trajectory export': withEnv(async () => (await import('./commands/trajectory')).trajectoryExportCommand),
  'user create': async (args) => (await import('./commands/user')).userCreateCommand(args),
  'user list': async (args) => (await import('./commands/user')).userListCommand(args),
  'keys rotate': async (args) => (await import('./commands/keys')).keysRotateCommand(args),
};

async function main(argv: string[]): Promise<number> {
  let code: number = EXIT.ok;
  let command = '';
  const program = buildProgram(HELP, async ({ path, args }) => {
    command = path;
    code = await COMMANDS[path]!(args);
  });
  if (argv.length === 0) {
    process.stdout.write(HELP);
    return EXIT.ok;
  }
  try {
    await program.parseAsync(argv, { from: 'user' });
    return (await interruption()) ?? code;
  } catch (err) {
    // Commander said it already (an unknown option with its suggestion, a missing argument) or printed help.
    if (err instanceof CommanderError) return err.exitCode === 0 ? EXIT.ok : EXIT.usage;
    // A signal stopped the run and closed its sandboxes under it: that, not the failure it caused, is the outcome.
    const stopped = interruption();
    if (stopped) return await stopped;
    // A model nobody serves, a missing key or a bad profile file: the user's configuration, said plainly.
    // The domain's classes load only on this path: core is most of a small command's start-up otherwise.
    const { ConfigurationError } = await import('@gitbench/core');
    if (err instanceof UsageError || err instanceof ConfigurationError) {
      process.stderr.write(`gitbench ${command}: ${err.message}\n`);
      return EXIT.usage;
    }
    if (err instanceof InfrastructureError) {
      process.stderr.write(`gitbench ${command}: ${err.message}\n`);
      return EXIT.infrastructure;
    }
    throw err;
  }
}

process.exitCode = await main(process.argv.slice(2));
