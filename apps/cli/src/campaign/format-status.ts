import {
  ATTEMPT_STATUSES,
  COMPLETENESS_PARTS,
  type Rate,
  type Resource,
  type TargetFigures,
} from '@gitbench/core/figures';
import type { CampaignSummary } from '@gitbench/db';

const PART_LABEL: Record<(typeof COMPLETENESS_PARTS)[number], string> = {
  targetAttempts: 'target attempts',
  judgeScoring: 'judge scoring',
  safetyReview: 'safety review',
};

const percent = (v: number) => `${(v * 100).toFixed(1)}%`;

/** Every rate with the evidence behind it: numerator/denominator, value and Wilson interval. */
export function formatRate(r: Rate): string {
  if (r.value === null) return `${r.numerator}/${r.denominator} (no evidence)`;
  const ci = r.interval ? ` (95% Wilson ${percent(r.interval.low)}–${percent(r.interval.high)})` : '';
  return `${r.numerator}/${r.denominator} = ${percent(r.value)}${ci}`;
}

function formatMetric(m: Resource, unit: (v: number) => string): string {
  if (m.value === null) return 'unknown';
  return `${unit(m.value)}${m.partial ? ` (known for ${m.known} of ${m.expected})` : ''}`;
}

/** One target's figures, as `campaign status` prints them. */
export function targetLines(g: TargetFigures, profile: string | undefined): string[] {
  // Agent and model apart: `codex × oracle · agent`, our own loop unnamed as before.
  const name =
    `${g.agent ? `${g.agent} × ` : ''}${g.modelId} ` + `· ${g.outputMode}${profile ? ` (profile ${profile})` : ''}`;
  const lines = [`  ${name}`, `    mean success   ${formatRate(g.meanSuccess)}`];
  if (g.passAny.applicable) {
    const points = g.passAny.points.map((p) => `n=${p.n} ${p.numerator}/${p.denominator}`).join('  ');
    lines.push(`    pass_any_at_n  ${points || '(no series with a valid attempt)'}`);
  } else lines.push(`    pass_any_at_n  not applicable: ${g.passAny.message}`);
  if (g.classification.applicable) {
    const c = g.classification;
    // One trial says nothing about stability: its fixtures passed or failed once, as the dashboard says.
    lines.push(
      g.singleTrial
        ? `    fixtures       single trial: ${c.stablePass} pass, ${c.stableFail} fail, ${c.unknown} unknown`
        : `    fixtures       ${c.stablePass} stable pass, ${c.flaky} ` +
            `flaky, ${c.stableFail} stable fail, ${c.unknown} unknown`,
    );
  } else lines.push(`    fixtures       stability not applicable: ${g.classification.message}`);
  const resources = (m: TargetFigures['totals']) =>
    `cost ${formatMetric(m.costUsd, (v) => `$${v.toFixed(6)}`)}, ` +
    `tokens ${formatMetric(m.tokens, (v) => String(Math.round(v)))}, ` +
    `API time ${formatMetric(m.apiDurationMs, (v) => `${(v / 1000).toFixed(1)} s`)}`;
  // Rankings use the mean per complete trial; the totals are context (and all there is while no
  // round is complete, e.g. when judge-scored attempts are unscored).
  lines.push(`    per complete trial (${g.completeTrials} of ${g.trialRounds}): ${resources(g.perTrial)}`);
  lines.push(`    campaign totals: ${resources(g.totals)}`);
  return lines;
}

/** `gitbench campaign status` for people: counts, completeness's three parts, then every target. */
export function formatStatus(s: CampaignSummary): string {
  const c = s.campaign;
  // Dates are Date from the database and ISO strings from the HTTP API.
  const iso = (d: Date | string) => new Date(d).toISOString();
  const when = [
    `created ${iso(c.createdAt)}`,
    c.startedAt && `started ${iso(c.startedAt)}`,
    c.finishedAt && `finished ${iso(c.finishedAt)}`,
  ];
  const counts = ATTEMPT_STATUSES.filter((st) => s.statusCounts[st]).map((st) => `${st} ${s.statusCounts[st]}`);
  const lines = [
    `campaign ${c.id} "${c.name}" ` +
      `by ${c.createdBy}: ${c.status}${c.legacy ? ' (legacy import: one trial, never ranked by default)' : ''}`,
    `  suite ${c.suiteVersion}, ${c.trials} trial(s), seed ${c.seed}, ` +
      `config ${c.configHash.slice(0, 12)}; ${when.filter(Boolean).join(', ')}`,
    ...(c.statusDetail ? [`  ${c.statusDetail}`] : []),
    `attempts: ${s.plannedAttempts} planned (${s.targets.length} target(s) ` +
      `× ${s.fixtures} fixture(s) × ${c.trials} trial(s)), ${s.done} done`,
    `  ${counts.join(', ') || 'none recorded yet'}`,
    `completeness: ${s.completeness.complete ? 'complete' : 'INCOMPLETE'}`,
  ];
  for (const part of COMPLETENESS_PARTS) {
    const p = s.completeness.parts[part];
    // A review nobody configured lets the campaign through, but it is not a review that passed.
    const notConfigured = part === 'safetyReview' && p.ok && s.campaign.safetyReview === 'not_configured';
    lines.push(
      `  ${PART_LABEL[part].padEnd(16)} ` +
        (notConfigured ? 'not configured (GITBENCH_SAFETY_REVIEW)' : p.ok ? 'ok' : 'no'),
    );
    for (const r of p.reasons) lines.push(`    ${r.message}`);
  }
  lines.push('targets:');
  const profileOf = new Map(s.targets.map((t) => [`${t.modelId}\0${t.outputMode}\0${t.agent ?? ''}`, t.profile]));
  for (const g of s.perTarget)
    lines.push(...targetLines(g, profileOf.get(`${g.modelId}\0${g.outputMode}\0${g.agent ?? ''}`)));
  if (s.perTarget.length === 0) lines.push('  (no attempts yet)');
  return `${lines.join('\n')}\n`;
}
