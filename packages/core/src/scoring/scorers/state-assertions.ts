import type { Fixture } from '../../fixtures/types';
import { runsAnswer } from '../domain-rules';
import { extractCommands } from '../extract-commands';
import type { CommandExtraction } from '../extract-commands';
import { check, clip, verdict } from '../result';
import type { Probe, SandboxEvidence, SandboxPlan, ScoreCheck, Scorer } from '../types';
import { judge } from './state-assertion-judge';
import { isText, lookUpFor, type Assertion } from './state-assertion-look-ups';

/**
 * Run the answer's commands in the attempt's repository (in the benchmarks where upstream runs them,
 * or when `scoring.execute_answer` says so: see runsAnswer), then check the fixture's
 * `expected_state.assertions` there. Commands stop at the first failure; the assertions are
 * checked on whatever state results, and only they decide: pass when all hold, score = share held.
 * Each assertion compares exactly as upstream does (see `judge` in state-assertion-judge.ts); paths are relative to the
 * repository root and may leave it (`../feature-wt`).
 */

/** More command lines than any real answer: such an answer is not run at all. */
export const MAX_ANSWER_COMMANDS = 500;

/** Upstream lets submodule commands use local paths (`git submodule add ../lib-bare lib`). */
export const ANSWER_ENV: Readonly<Record<string, string>> = { GIT_ALLOW_PROTOCOL: 'file:git:ssh:https' };

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

const probeId = (index: number) => `assertion-${index + 1}`;

function describe(a: Assertion): string {
  const target = [a.path, a.name, a.key, a.command].find(isText) ?? '';
  const want = [a.value, a.contains, a.not_contains, a.exact].find(isText);
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
