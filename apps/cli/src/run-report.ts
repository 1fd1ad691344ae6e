import type { AnswerMode } from '@gitbench/core';
import type { ReplayAgreement, SuiteRunEntry } from '@gitbench/engine';

export interface RunSummary {
  outputMode: AnswerMode;
  trial: number;
  attempts: number;
  /**
   * Engine outcomes: PASS, FAIL, NEEDS_JUDGE (unscored), SANDBOX_ERROR, HASH_MISMATCH, CONFIG_ERROR, TAMPERING (a
   * counted failure), NOT_RUN.
   */
  outcomes: Record<string, number>;
  /** The envelope's own summary (quality outcomes only). */
  summary: { total_fixtures: number; total_passed: number; overall_pass_at_k: number };
  excluded: { benchmark: string; fixture_id: string; outcome: string; reason: string }[];
  /** The target model's calls (every call of an agent attempt). */
  usage: Usage;
  /** The judges' calls, kept apart from the model's as the worker keeps them. */
  judgeUsage: Usage;
  file?: string;
  /** Agent mode: why the loops stopped, steps and tool calls, and the protocol used. */
  agent?: AgentFigures;
  /** Each attempt's fixture and outcome, so a reader of --json need not parse the progress lines. */
  results: AttemptResultLine[];
}

export interface AttemptResultLine {
  fixture: string;
  outcome: string;
  seconds: number;
  /** Agent mode: why the loop stopped, and after how many steps. */
  exitStatus?: string;
  steps?: number;
  error?: string;
}

export function attemptResult(e: SuiteRunEntry): AttemptResultLine {
  const loop = e.run?.agent?.summary;
  return {
    fixture: `${e.fixture.domain}/${e.fixture.id}`,
    outcome: e.attempt?.outcome ?? 'NOT_RUN',
    seconds: Math.round(e.durationMs / 100) / 10,
    ...(loop ? { exitStatus: loop.exitStatus, steps: loop.steps } : {}),
    ...(e.attempt ? {} : { error: e.error ?? 'unknown error' }),
  };
}

export interface Usage {
  calls: number;
  input_tokens: number;
  output_tokens: number;
  total_tokens: number;
  calls_with_tokens: number;
  cost_usd: number | null;
  calls_with_cost: number;
  api_duration_ms: number;
}

export interface AgentFigures {
  exitStatuses: Record<string, number>;
  protocols: Record<string, number>;
  steps: number;
  toolCalls: number;
  /** Attempts without a trajectory (the sandbox or the configuration failed before the loop). */
  noTrajectory: number;
  wallMs: number;
}

export function agentFigures(entries: readonly SuiteRunEntry[]): AgentFigures {
  const f: AgentFigures = { exitStatuses: {}, protocols: {}, steps: 0, toolCalls: 0, noTrajectory: 0, wallMs: 0 };
  for (const e of entries) {
    const s = e.run?.agent?.summary;
    if (!s) {
      f.noTrajectory++;
      continue;
    }
    f.exitStatuses[s.exitStatus] = (f.exitStatuses[s.exitStatus] ?? 0) + 1;
    f.protocols[s.protocol] = (f.protocols[s.protocol] ?? 0) + 1;
    f.steps += s.steps;
    f.toolCalls += s.totals.toolCalls;
    f.wallMs += s.totals.wallMs;
  }
  return f;
}

function agentLine(a: AgentFigures, attempts: number): string {
  const list = (r: Record<string, number>) =>
    Object.entries(r)
      .map(([k, v]) => `${k} ${v}`)
      .join(', ') || 'none';
  const loops = attempts - a.noTrajectory;
  return (
    `  agent: exit ${list(a.exitStatuses)}; ${a.steps} step(s), ${a.toolCalls} tool ` +
    `call(s)${loops ? ` (${(a.steps / loops).toFixed(1)} steps per attempt)` : ''}; ` +
    `protocol ${list(a.protocols)}${a.noTrajectory ? `; ${a.noTrajectory} without a trajectory` : ''}`
  );
}

export interface RunReport {
  model: string;
  provider: string;
  profile: string;
  simulated: boolean;
  /**
   * `fixtures` in the directory; `selected` by --domain, --difficulty, --tag and --id (all of them when none is given).
   */
  suite: { dir: string; version: string; fixtures: number; selected: number; invalidFiles: number };
  runs: RunSummary[];
  /** Replayed runs only: our verdicts against the verdicts recorded with the replayed answers. */
  agreement?: ReplayAgreement;
  /** A third-party agent's run: which agent, pinned to which version, in which image. */
  thirdPartyAgent?: { name: string; version: string; protocol: string; image: string };
  notes: string[];
}

export function outcomeCounts(entries: readonly SuiteRunEntry[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const e of entries) {
    const k = e.attempt?.outcome ?? 'NOT_RUN';
    counts[k] = (counts[k] ?? 0) + 1;
  }
  return counts;
}

const pct = (n: number, d: number) => (d ? `${((n / d) * 100).toFixed(1)}%` : '-');

function usageLine(u: Usage): string {
  const cost =
    u.cost_usd === null
      ? 'cost unknown'
      : `cost $${u.cost_usd.toFixed(6)} (${u.calls_with_cost} of ${u.calls} calls priced)`;
  const tokens =
    u.calls_with_tokens === 0
      ? 'tokens unknown'
      : `${u.input_tokens} input / ${u.output_tokens} output ` +
        `tokens (${u.calls_with_tokens} of ${u.calls} calls counted)`;
  return `${u.calls} call(s): ${tokens}, ${cost}, API time ${(u.api_duration_ms / 1000).toFixed(1)} s`;
}

function agreementLines(a: ReplayAgreement): string[] {
  const lines = [
    '',
    `agreement with the recorded verdicts: compared ${a.compared}, agreed ${a.agreed} ` +
      `(${pct(a.agreed, a.compared)}), disagreed ${a.disagreed}, skipped ${a.skipped}`,
  ];
  for (const [type, t] of Object.entries(a.byType).sort(([x], [y]) => (x < y ? -1 : 1))) {
    lines.push(
      `  ${type.padEnd(22)} compared ${t.compared}, agreed ${t.agreed}, disagreed ${t.disagreed}, skipped ${t.skipped}`,
    );
  }
  for (const d of a.disagreements) {
    lines.push(
      `DISAGREE ${d.benchmark}/${d.id} [${d.outputMode}, trial ${d.trial}, ${d.scoringType}] ` +
        `recorded=${d.recorded ? 'pass' : 'fail'} ` +
        `ours=${d.ours ? 'pass' : 'fail'}${d.commitIdsMapped ? ' (commit ids mapped)' : ''}`,
      `  ${d.why}`,
      `  output: ${JSON.stringify(d.output.slice(0, 200))}`,
    );
  }
  if (a.skips.length) lines.push('skipped:');
  for (const s of a.skips) lines.push(`  ${s.benchmark}/${s.id} [${s.outputMode}, trial ${s.trial}]: ${s.reason}`);
  return lines;
}

/**
 * One line per finished attempt, printed as it finishes (on stderr, whatever stdout is): which, its
 * outcome, how an agent's loop ended and how long it took.
 */
export function attemptLine(done: number, total: number, e: SuiteRunEntry): string {
  const loop = e.run?.agent?.summary;
  const mode = loop ? 'agent' : e.outputMode;
  const ending = loop ? `, ${loop.exitStatus} after ${loop.steps} step(s)` : '';
  const why = e.attempt ? '' : `: ${e.error ?? 'unknown error'}`;
  return (
    `[${done}/${total}] ${e.fixture.domain}/${e.fixture.id} ${mode} ` +
    `trial ${e.trial}: ${e.attempt?.outcome ?? 'NOT_RUN'}${ending} in ${(e.durationMs / 1000).toFixed(1)} s${why}`
  );
}

/** `model via provider (profile p)`: a profile's provider names its profile already (`openai (profile relay)`). */
function header(r: RunReport): string {
  const via = r.provider.includes(`(profile ${r.profile})`) ? r.provider : `${r.provider} (profile ${r.profile})`;
  return `${r.model} via ${via}${r.simulated ? ' — SIMULATED: no model answered' : ''}`;
}

/** The human-readable report: one block per output mode and trial, then the agreement when replayed. */
export function formatRunReport(r: RunReport): string {
  const lines = [
    header(r),
    `suite ${r.suite.dir} version ${r.suite.version}: ` +
      (r.suite.selected < r.suite.fixtures ? `${r.suite.selected} of ` : '') +
      `${r.suite.fixtures} fixture(s)` +
      (r.suite.invalidFiles ? `, ${r.suite.invalidFiles} invalid file(s) skipped` : ''),
    ...(r.thirdPartyAgent
      ? [
          `agent ${r.thirdPartyAgent.name} ${r.thirdPartyAgent.version} ` +
            `(${r.thirdPartyAgent.protocol}) in ${r.thirdPartyAgent.image}`,
        ]
      : []),
  ];
  for (const s of r.runs) {
    const counts = Object.entries(s.outcomes)
      .map(([k, v]) => `${k} ${v}`)
      .join(', ');
    lines.push(
      '',
      `${s.agent ? 'agent' : s.outputMode} trial ${s.trial}: ${s.attempts} attempt(s): ${counts}`,
      `  passed ${s.summary.total_passed}/${s.summary.total_fixtures} scored ` +
        `(${pct(s.summary.total_passed, s.summary.total_fixtures)})${s.file ? ` → ${s.file}` : ''}`,
      `  ${usageLine(s.usage)}`,
    );
    if (s.judgeUsage.calls > 0) lines.push(`  judges: ${usageLine(s.judgeUsage)}`);
    if (s.agent) lines.push(agentLine(s.agent, s.attempts));
    for (const x of s.excluded) lines.push(`  excluded ${x.benchmark}/${x.fixture_id}: ${x.reason}`);
  }
  if (r.agreement) lines.push(...agreementLines(r.agreement));
  for (const n of r.notes) lines.push('', `note: ${n}`);
  return `${lines.join('\n')}\n`;
}
