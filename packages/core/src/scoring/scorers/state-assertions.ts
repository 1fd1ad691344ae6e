import type { Fixture } from '../../fixtures/types';
import { runsAnswer } from '../domain-rules';
import { extractCommands } from '../extract-commands';
import type { CommandExtraction } from '../extract-commands';
import { readsOnly } from '../probes';
import { gitCommandRefNames, judgeAmbiguous, namesGuard } from '../ref-name-guard';
import { pySplitWhitespace, pyStrip } from '../python-text';
import { check, clip, pyTruthy, verdict } from '../result';
import { shellArg } from '../../shell-quote';
import type { ExecRecord, Probe, SandboxEvidence, SandboxPlan, ScoreCheck, Scorer } from '../types';

/**
 * Run the answer's commands in the attempt's repository (in the benchmarks where upstream runs them,
 * or when `scoring.execute_answer` says so: see runsAnswer), then check the fixture's
 * `expected_state.assertions` there. Commands stop at the first failure; the assertions are
 * checked on whatever state results, and only they decide: pass when all hold, score = share held.
 * Each assertion compares exactly as upstream does (see `judge` below); paths are relative to the
 * repository root and may leave it (`../feature-wt`).
 */

/** More command lines than any real answer: such an answer is not run at all. */
export const MAX_ANSWER_COMMANDS = 500;

/** Upstream lets submodule commands use local paths (`git submodule add ../lib-bare lib`). */
export const ANSWER_ENV: Readonly<Record<string, string>> = { GIT_ALLOW_PROTOCOL: 'file:git:ssh:https' };

type Assertion = Record<string, unknown>;
type Outcome = { ok: boolean; detail: string; actual?: string };

const str = (value: unknown): value is string => typeof value === 'string';
const q = shellArg;

function assertionsOf(fixture: Fixture): Assertion[] | null {
  const state = fixture.scoring.expected_state;
  const list = state && typeof state === 'object' ? (state as Record<string, unknown>).assertions : undefined;
  if (!Array.isArray(list) || list.length === 0) return null;
  return list.map((a) => (a && typeof a === 'object' && !Array.isArray(a) ? (a as Assertion) : {}));
}

function answerCommands(output: string): CommandExtraction {
  const extraction = extractCommands(output);
  if (extraction.ok && extraction.commands.length > MAX_ANSWER_COMMANDS) {
    return {
      ok: false,
      reason: `the answer has ${extraction.commands.length} command lines; at most ${MAX_ANSWER_COMMANDS} are run`,
      commands: [],
    };
  }
  return extraction;
}

const KNOWN: Record<string, true> = Object.fromEntries(
  [
    'file_exists',
    'file_not_exists',
    'dir_exists',
    'dir_not_exists',
    'file_content',
    'file_not_contains',
    'branch_exists',
    'git_config',
    'git_output',
    'model_output',
  ].map((t) => [t, true]),
);

const READ_FILE = (path: string) => `if test -f ${q(path)}; then cat -- ${q(path)}; else exit 3; fi`;

/** Upstream joins the path to the repository: an empty one names the repository directory itself. */
const inRepo = (path: string) => (path === '' ? './' : path);

/** The look-up an assertion needs, and whether it only reads; null when it is decided without the sandbox. */
function lookUpFor(a: Assertion): Omit<Probe, 'id'> | null {
  const command = probeFor(a);
  if (command === null) return null;
  // Every form but git_output's is one of the tests and reads above; a git_output command is the fixture's own.
  const readOnly = a.type !== 'git_output' || (str(a.command) && readsOnly(pySplitWhitespace(a.command)));
  return { command, ...(readOnly ? { readOnly: true } : {}) };
}

/** The look-up an assertion needs, or null when it is decided without the sandbox. */
function probeFor(a: Assertion): string | null {
  switch (a.type) {
    case 'file_exists':
    case 'file_not_exists':
      return str(a.path) ? `test -f ${q(inRepo(a.path))}` : null;
    case 'dir_exists':
    case 'dir_not_exists':
      return str(a.path) ? `test -d ${q(inRepo(a.path))}` : null;
    case 'file_content':
    case 'file_not_contains':
      return str(a.path) ? READ_FILE(inRepo(a.path)) : null;
    case 'branch_exists': {
      if (!str(a.name)) return null;
      const list = `git branch --list ${q(a.name)}`;
      return str(a.in_worktree) && a.in_worktree !== '' ? `cd -- ${q(a.in_worktree)} || exit 3; ${list}` : list;
    }
    case 'git_config':
      return str(a.key) ? `git config --get ${q(a.key)}` : null;
    case 'git_output': {
      // Upstream runs command.split() without a shell: every word is quoted so none is expanded.
      const words = str(a.command) ? pySplitWhitespace(a.command) : [];
      if (words.length === 0) return null;
      // A branch or tag the command names must read as that ref, not as one the model made to shadow it.
      const { names, git } = gitCommandRefNames(words);
      const guard = namesGuard(names, git);
      return `${guard ? `${guard}\n` : ''}${words.map(q).join(' ')}`;
    }
    default:
      return null;
  }
}

// Python's text-mode read turns \r\n and \r into \n.
const universalNewlines = (s: string) => s.replace(/\r\n?/g, '\n');

function existence(record: ExecRecord, want: boolean, what: string): Outcome {
  if (record.exitCode !== 0 && record.exitCode !== 1)
    return { ok: false, detail: `could not test for the ${what} (exit ${record.exitCode})` };
  const exists = record.exitCode === 0;
  return { ok: exists === want, detail: `${what} ${exists ? 'exists' : 'does not exist'}` };
}

function judge(a: Assertion, output: string, record: ExecRecord | undefined): Outcome {
  if (a.type === 'model_output') {
    if ('contains' in a)
      return str(a.contains) && output.includes(a.contains)
        ? { ok: true, detail: 'answer contains the text' }
        : { ok: false, detail: 'answer does not contain the text' };
    if ('exact' in a)
      return {
        ok: pyStrip(output) === a.exact,
        detail: pyStrip(output) === a.exact ? 'answer is exactly the text' : 'answer is not exactly the text',
        actual: pyStrip(output),
      };
    return {
      ok: pyStrip(output).length > 0,
      detail: pyStrip(output).length > 0 ? 'answer is not empty' : 'answer is empty',
    };
  }
  if (probeFor(a) === null) {
    return {
      ok: false,
      detail:
        typeof a.type === 'string' && a.type in KNOWN
          ? 'assertion is missing a required field'
          : `unknown assertion type ${JSON.stringify(a.type)}`,
    };
  }
  if (!record) return { ok: false, detail: 'no sandbox evidence for this assertion' };
  if (record.timedOut) return { ok: false, detail: 'look-up timed out' };
  switch (a.type) {
    case 'file_exists':
      return existence(record, true, 'file');
    case 'file_not_exists':
      return existence(record, false, 'file');
    case 'dir_exists':
      return existence(record, true, 'directory');
    case 'dir_not_exists':
      return existence(record, false, 'directory');
    case 'file_content': {
      if (record.exitCode !== 0)
        return {
          ok: false,
          detail: record.exitCode === 3 ? 'file does not exist' : `file could not be read (exit ${record.exitCode})`,
        };
      if (record.truncated) return { ok: false, detail: 'file is larger than the sandbox output cap; not compared' };
      const actual = universalNewlines(record.stdout);
      if (str(a.contains))
        return {
          ok: actual.includes(a.contains),
          detail: actual.includes(a.contains) ? 'file contains the text' : 'file does not contain the text',
          actual,
        };
      if (pyTruthy(a.contains)) {
        const value = pyTruthy(a.value) ? a.value : '';
        const ok = str(value) && actual.includes(value);
        return { ok, detail: ok ? 'file contains the value' : 'file does not contain the value', actual };
      }
      if (!str(a.value)) return { ok: false, detail: 'assertion has no text value to compare' };
      const ok = pyStrip(actual) === pyStrip(a.value);
      return { ok, detail: ok ? 'file content matches (ends trimmed)' : 'file content differs', actual };
    }
    case 'file_not_contains': {
      if (record.exitCode === 3) return { ok: true, detail: 'file does not exist' };
      if (record.exitCode !== 0) return { ok: false, detail: `file could not be read (exit ${record.exitCode})` };
      if (record.truncated) return { ok: false, detail: 'file is larger than the sandbox output cap; not searched' };
      if (!str(a.value)) return { ok: false, detail: 'assertion has no text value' };
      const found = universalNewlines(record.stdout).includes(a.value);
      return { ok: !found, detail: found ? 'file contains the text' : 'file does not contain the text' };
    }
    case 'branch_exists': {
      if (str(a.in_worktree) && record.exitCode === 3)
        return { ok: false, detail: `worktree ${a.in_worktree} does not exist` };
      const ok = record.stdout.includes(a.name as string);
      return { ok, detail: ok ? 'branch listed' : 'branch not listed', actual: record.stdout };
    }
    case 'git_config': {
      const actual = pyStrip(record.stdout);
      const ok = record.exitCode === 0 && str(a.value) && actual === a.value;
      return {
        ok,
        detail: record.exitCode === 0 ? (ok ? 'value matches' : 'value differs') : 'key is not set',
        actual,
      };
    }
    case 'git_output': {
      const ambiguous = judgeAmbiguous(record);
      if (ambiguous) return ambiguous;
      if (record.exitCode === 126 || record.exitCode === 127)
        return { ok: false, detail: `command could not be run (exit ${record.exitCode})`, actual: record.stderr };
      const text = record.stdout + record.stderr;
      if ('exact' in a) {
        const ok = str(a.exact) && pyStrip(text) === a.exact;
        if (!ok && record.truncated)
          return { ok: false, detail: 'output was cut at the sandbox cap; cannot compare', actual: text };
        return {
          ok,
          detail: ok ? 'output is exactly the text (ends trimmed)' : 'output is not exactly the text',
          actual: text,
        };
      }
      if ('contains' in a) {
        const ok = str(a.contains) && text.includes(a.contains);
        if (!ok && record.truncated)
          return { ok: false, detail: 'output was cut at the sandbox cap before the text appeared', actual: text };
        return { ok, detail: ok ? 'output contains the text' : 'output does not contain the text', actual: text };
      }
      if ('not_contains' in a) {
        if (!str(a.not_contains)) return { ok: false, detail: 'not_contains is not text' };
        if (record.truncated) return { ok: false, detail: 'output was cut at the sandbox cap; cannot tell' };
        const found = text.includes(a.not_contains);
        return {
          ok: !found,
          detail: found ? 'output contains the text' : 'output does not contain the text',
          actual: text,
        };
      }
      return { ok: record.exitCode === 0, detail: `command exited ${record.exitCode}`, actual: text };
    }
  }
  return { ok: false, detail: `unknown assertion type ${JSON.stringify(a.type)}` };
}

const probeId = (index: number) => `assertion-${index + 1}`;

function describe(a: Assertion): string {
  const target = [a.path, a.name, a.key, a.command].find(str) ?? '';
  const want = [a.value, a.contains, a.not_contains, a.exact].find(str);
  return (
    `${String(a.type)}${target ? ` ${target}` : ''}` + (want !== undefined ? ` ${JSON.stringify(clip(want, 60))}` : '')
  );
}

function answerCheck(
  fixture: Fixture,
  extraction: CommandExtraction,
  evidence: SandboxEvidence | undefined,
): ScoreCheck {
  if (!runsAnswer(fixture)) {
    return check(
      'answer commands (not decisive)',
      true,
      `not run: the ${fixture.domain} benchmark checks the repository as set up (scoring.execute_answer is not true)`,
    );
  }
  if (!extraction.ok) return check('answer commands (not decisive)', false, `no commands run: ${extraction.reason}`);
  const ran = evidence?.answer ?? [];
  if (evidence?.stoppedAt !== undefined) {
    const failed = ran[evidence.stoppedAt];
    return check(
      'answer commands (not decisive)',
      false,
      `stopped at command ${evidence.stoppedAt + 1} of ${extraction.commands.length}` +
        (failed ? ` (exit ${failed.exitCode}${failed.timedOut ? ', timed out' : ''})` : '') +
        '; ' +
        `assertions checked on the resulting state`,
      extraction.commands.join('\n'),
      failed ? `${failed.command}\n${failed.stderr}` : undefined,
    );
  }
  return check(
    'answer commands (not decisive)',
    true,
    `${ran.length} of ${extraction.commands.length} command(s) ran`,
    undefined,
    extraction.commands.join('\n'),
  );
}

export const stateAssertionsScorer: Scorer = {
  type: 'state_assertions',
  readsRepositoryOnly: true,
  plan(fixture, output): SandboxPlan {
    const probes: Probe[] = [];
    (assertionsOf(fixture) ?? []).forEach((a, index) => {
      const lookUp = a.type === 'model_output' ? null : lookUpFor(a);
      if (lookUp !== null) probes.push({ id: probeId(index), ...lookUp });
    });
    return {
      answerCommands: runsAnswer(fixture) ? answerCommands(output).commands : [],
      probes,
      env: { ...ANSWER_ENV },
    };
  },
  score({ fixture, output, evidence }) {
    const assertions = assertionsOf(fixture);
    if (!assertions)
      return verdict(false, 0, [
        check('assertions', false, 'no assertions defined in scoring.expected_state.assertions'),
      ]);
    const checks: ScoreCheck[] = [answerCheck(fixture, answerCommands(output), evidence)];
    let held = 0;
    assertions.forEach((a, index) => {
      const outcome = judge(a, output, evidence?.probes[probeId(index)]);
      if (outcome.ok) held++;
      checks.push(check(describe(a), outcome.ok, outcome.detail, undefined, outcome.actual));
    });
    return verdict(held === assertions.length, held / assertions.length, checks);
  },
};
