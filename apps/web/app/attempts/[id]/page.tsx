import Link from 'next/link';
import { notFound } from 'next/navigation';
import { attemptStatusReason, isAttemptStatus, isSimulatedModelId, type AttemptEvidence, type ScoreCheck } from '@gitbench/core';
import { DataTable } from '@/components/data-table';
import { Section } from '@/components/empty-state';
import { Diff, Facts, JsonBlock, Pre } from '@/components/evidence';
import { FamilyEvidence } from '@/components/family-evidence';
import { date, DASH, duration, fixtureHref, int, modelHref, productVersion, usd } from '@/components/format';
import { SandboxEvidenceView } from '@/components/sandbox-evidence';
import { LegacyBadge, SimulatedBadge, StatusBadge } from '@/components/status-badge';
import { Transcript } from '@/components/transcript';
import { getAttemptEvidence, tryEvidence } from '@/lib/queries/attempt';
import { getStepRange, getTrajectoryView } from '@/lib/queries/trajectory';
import { TrajectorySection } from '@/components/trajectory/trajectory-section';
import { TrajectoryWaiting } from '@/components/trajectory/trajectory-waiting';
import { countOf, STEP_PAGE } from '@/lib/trajectory/view-model';
import { services } from '@/lib/services';
import { requirePage } from '@/lib/auth/guard';

export const dynamic = 'force-dynamic';

/** What the scorer (or, for an imported try, upstream) recorded, split into its checks and the rest. */
function scorerParts(ev: AttemptEvidence | null): { checks: ScoreCheck[]; rest: Record<string, unknown> } | null {
  if (!ev) return null;
  if (ev.origin === 'upstream') return { checks: [], rest: { source: 'upstream', ...ev.verdict } };
  if (!ev.scoring && !ev.judge) return null;
  // Hashes have their own section and the verdict is printed above; the rest stays one click away.
  const { checks = [], hashes: _hashes, ...scoring } = ev.scoring ?? {};
  // The history judge's calls as the LLM judge's members are shown: reply, usage, cost, time, route.
  const historyJudge = ev.historyJudgeCalls?.map((c) => ({ output: c.output, usage: c.usage, cost: c.cost, apiDurationMs: c.apiDurationMs, route: c.route, retries: c.retries }));
  return { checks, rest: { ...scoring, judge: ev.judge, ...(historyJudge ? { historyJudgeCalls: historyJudge } : {}) } };
}

function ScorerEvidence({ evidence }: { evidence: AttemptEvidence | null }) {
  const parts = scorerParts(evidence);
  if (!parts) return <p className="text-sm text-slate-500">The scorer recorded no evidence for this try.</p>;
  const { checks, rest } = parts;
  return (
    <div className="space-y-3">
      {checks.length > 0 ? (
        <ul className="space-y-2" data-testid="scorer-checks">
          {checks.map((c, i) => (
            <li key={i} id={`check-${i}`} className={`rounded border p-3 text-sm ${c.ok ? 'border-emerald-200 bg-emerald-50' : 'border-rose-200 bg-rose-50'}`}>
              <div className="flex items-center gap-2 font-medium">
                <span aria-hidden>{c.ok ? '✓' : '✗'}</span>
                <span>{c.check}</span>
                <span className={`text-xs ${c.ok ? 'text-emerald-700' : 'text-rose-700'}`}>{c.ok ? 'held' : 'failed'}</span>
              </div>
              {c.detail ? <p className="mt-1 whitespace-pre-wrap break-words text-slate-700">{c.detail}</p> : null}
              {c.expected !== undefined || c.actual !== undefined ? (
                <div className="mt-2 grid gap-2 sm:grid-cols-2">
                  <div>
                    <div className="text-xs text-slate-500">expected</div>
                    <Pre>{c.expected ?? DASH}</Pre>
                  </div>
                  <div>
                    <div className="text-xs text-slate-500">actual</div>
                    <Pre>{c.actual ?? DASH}</Pre>
                  </div>
                </div>
              ) : null}
            </li>
          ))}
        </ul>
      ) : null}
      {Object.keys(rest).length > 0 ? (
        <details>
          <summary className="cursor-pointer text-sm text-slate-600">Everything the scorer recorded</summary>
          <JsonBlock value={rest} label="scorer evidence" />
        </details>
      ) : null}
    </div>
  );
}

/** The transcript, route, request and usage of every model call, however the try was recorded. */
function callsOf(ev: AttemptEvidence | null) {
  if (!ev) return { transcript: [] as unknown[], route: null, requestConfig: null, usage: null };
  if (ev.origin === 'upstream') return { transcript: ev.transcript, route: ev.route, requestConfig: ev.requestConfig, usage: { telemetry: ev.telemetry, usage: ev.usage } };
  const calls = ev.calls;
  const one = <T,>(pick: (c: (typeof calls)[number]) => T) => (calls.length === 1 ? pick(calls[0]!) : calls.map(pick));
  return {
    transcript: calls.flatMap((c) => c.transcript),
    route: calls.length ? one((c) => c.route) : null,
    requestConfig: calls.length ? one((c) => c.requestConfig) : null,
    usage: calls.length ? one((c) => ({ retries: c.retries, usage: c.usage, cost: c.cost, apiDurationMs: c.apiDurationMs, flags: c.flags, qualityFailure: c.qualityFailure })) : null,
  };
}

/** A query parameter as a step or try number, or undefined when absent or not one. */
function indexParam(value: string | string[] | undefined): number | undefined {
  const n = typeof value === 'string' && /^\d{1,7}$/.test(value) ? Number(value) : NaN;
  return Number.isFinite(n) ? n : undefined;
}

export default async function AttemptPage({ params, searchParams }: { params: Promise<{ id: string }>; searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const actor = await requirePage('viewer');
  const { id } = await params;
  const query = await searchParams;
  const db = services().db;
  const [found, trajectory] = await Promise.all([getAttemptEvidence(db, id, actor.role), getTrajectoryView(db, id, indexParam(query.try))]);
  if (!found) notFound();
  const askedStep = indexParam(query.step);
  const initialStep = trajectory && askedStep !== undefined && askedStep < trajectory.heads.length ? askedStep : null;
  const stepPage = Math.floor((initialStep ?? 0) / STEP_PAGE);
  const pageSteps = trajectory
    ? ((await getStepRange(db, id, { from: stepPage * STEP_PAGE, to: (stepPage + 1) * STEP_PAGE, tryNumber: trajectory.meta.tryNumber })) ?? [])
    : [];
  // Raw outputs (prompt, answer, transcript, command output, error messages) reach viewers only once the
  // campaign is published, after its safety review: the query leaves them out (see getAttemptEvidence).
  const { attempt: a, siblings, rawHidden } = found;
  const latest = a.tries[0];
  const parsed = rawHidden ? null : tryEvidence(latest?.evidence);
  const ev = parsed?.ok ? parsed.record : null;
  const calls = callsOf(ev);
  const sandbox = ev?.origin === 'gitbench' ? ev.sandbox : null;
  // An agent's commands and its conversation are the trajectory's steps: the single-answer sections'
  // "no sandbox ran" and "no transcript" would contradict it.
  const ranAsAgent = Boolean(trajectory) || a.outputMode === 'agent';
  const agentSandboxElsewhere = ranAsAgent && (!sandbox || sandbox.kind === 'none');
  const transcriptRecorded = Array.isArray(calls.transcript) && calls.transcript.length > 0;
  const fx = a.fixtureSnapshot;
  const def = (fx.definition ?? {}) as Record<string, unknown>;
  const reason = isAttemptStatus(a.status) ? attemptStatusReason(a.status) : a.status;
  const simulated = isSimulatedModelId(a.modelId);
  const checks = scorerParts(ev)?.checks ?? [];
  const failingCheck = checks.findIndex((c) => !c.ok);
  const scorerCheck = failingCheck >= 0 ? { anchor: `check-${failingCheck}`, name: checks[failingCheck]!.check } : null;

  return (
    <div className="space-y-8">
      <div className="space-y-2">
        <p className="text-sm text-slate-500">
          <Link className="hover:underline" href={`/campaigns/${a.campaignId}`}>
            {a.campaign.name}
          </Link>{' '}
          /{' '}
          <Link className="hover:underline" href={modelHref(a.modelId, { campaign: a.campaignId })}>
            {a.modelId}
          </Link>{' '}
          /{' '}
          <Link className="hover:underline" href={fixtureHref(a.domain, a.fixtureId, a.campaignId)}>
            {a.domain}/{a.fixtureId}
          </Link>
        </p>
        <h1 className="flex flex-wrap items-center gap-2 text-2xl font-semibold">
          Attempt: trial {a.trial} of {a.campaign.trials} <StatusBadge status={a.status} /> {a.campaign.legacy ? <LegacyBadge /> : null}{' '}
          {simulated ? <SimulatedBadge /> : null}
        </h1>
        {simulated ? (
          <p className="rounded border border-orange-200 bg-orange-50 p-3 text-sm text-orange-900">
            Simulated attempt: a seeded coin decided whether this answer is the expected one or a fixed wrong answer. No model was called; the
            tokens and API time are made up to exercise the dashboard.
          </p>
        ) : null}
        <p className="text-sm text-slate-600" data-testid="attempt-summary">
          {a.modelId} · {a.outputMode}
          {a.reasoningEffort ? ` · effort ${a.reasoningEffort}` : ''} · {reason}
          {a.score !== null ? ` · score ${a.score.toFixed(3)}` : ''} · {a.tryCount} tr{a.tryCount === 1 ? 'y' : 'ies'}
        </p>
        {a.errorMessage || (rawHidden && a.errorClass) ? (
          <p className="rounded border border-amber-200 bg-amber-50 p-2 text-sm text-amber-900" data-testid="attempt-error">
            {a.errorClass ? <strong>{a.errorClass}{a.errorMessage ? ': ' : ''}</strong> : null}
            {a.errorMessage}
          </p>
        ) : null}
        {siblings.length > 1 ? (
          <nav className="flex flex-wrap items-center gap-2 text-sm" aria-label="Other trials of this fixture and target">
            <span className="text-slate-500">Trials:</span>
            {siblings.map((s) =>
              s.id === a.id ? (
                <span key={s.id} className="rounded bg-slate-900 px-2 py-0.5 text-xs text-white">
                  {s.trial}
                </span>
              ) : (
                <Link key={s.id} href={`/attempts/${s.id}`} className="hover:opacity-80" aria-label={`Trial ${s.trial}: ${s.status}`}>
                  <StatusBadge status={s.status} title={`Trial ${s.trial}`} />
                </Link>
              ),
            )}
          </nav>
        ) : null}
      </div>

      <div className="grid gap-3 sm:grid-cols-4">
        {[
          ['Tokens', a.totalTokens === null ? DASH : `${int(a.totalTokens)} (in ${int(a.inputTokens)}, out ${int(a.outputTokens)}, reasoning ${int(a.reasoningTokens)})`],
          ['Cost', a.costUsd === null ? `${DASH} unknown` : `${usd(a.costUsd)}${a.costEstimated ? ' (estimated)' : ''}`],
          ['API time', duration(a.apiDurationMs)],
          ['Wall time', duration(a.wallDurationMs)],
        ].map(([k, v]) => (
          <div key={k} className="rounded-lg border border-slate-200 bg-white p-3">
            <div className="text-xs text-slate-500">{k}</div>
            <div className="text-sm font-medium tabular-nums" data-testid={`metric-${String(k).toLowerCase().replace(' ', '-')}`}>
              {v}
            </div>
          </div>
        ))}
      </div>

      {ev?.origin === 'gitbench' && ev.warnings?.length ? (
        <ul className="rounded border border-amber-300 bg-amber-50 p-3 text-sm text-amber-900" data-testid="evidence-warnings">
          {ev.warnings.map((w) => (
            <li key={w}>{w}</li>
          ))}
        </ul>
      ) : null}

      {trajectory && rawHidden ? (
        <p className="rounded border border-slate-200 bg-white p-3 text-sm text-slate-600" data-testid="trajectory-hidden">
          This attempt ran as an agent ({countOf(trajectory.meta.steps, 'step')}). Its trajectory is shown to viewers once the campaign is published, after its safety review.
        </p>
      ) : trajectory ? (
        <TrajectorySection attemptId={a.id} view={trajectory} page={{ page: stepPage, steps: pageSteps }} initialStep={initialStep} scorerCheck={scorerCheck} />
      ) : a.outputMode === 'agent' && (a.status === 'QUEUED' || a.status === 'RUNNING') && !rawHidden ? (
        <TrajectoryWaiting attemptId={a.id} />
      ) : null}

      {parsed && !parsed.ok ? (
        <p className="rounded border border-rose-200 bg-rose-50 p-3 text-sm text-rose-900" data-testid="evidence-error">
          The evidence of this try could not be read: {parsed.error}
        </p>
      ) : null}
      {rawHidden ? (
        <p className="rounded border border-slate-200 bg-white p-4 text-sm text-slate-600" data-testid="raw-hidden">
          The raw outputs of this attempt (prompt, answer, transcript and command output) are shown to viewers once its campaign is published,
          after its safety review.
        </p>
      ) : latest ? (
        <>
          <Section title="Rendered prompt" id="prompt">
            <Pre label="rendered prompt">{ev?.prompt ?? 'Not recorded.'}</Pre>
          </Section>
          <Section title="Model output vs expected" id="output">
            <div className="grid gap-3 lg:grid-cols-2">
              <div>
                <div className="text-xs font-medium text-slate-500">Model output</div>
                <Pre label="model output">{ev?.output ?? '(no output)'}</Pre>
              </div>
              <div>
                <div className="text-xs font-medium text-slate-500">Expected</div>
                <Pre label="expected">{ev?.expected ?? String(def.expected ?? '(not recorded)')}</Pre>
              </div>
            </div>
            <Diff expected={ev?.expected ?? String(def.expected ?? '')} actual={ev?.output ?? ''} />
          </Section>
          {ev?.origin === 'gitbench' && ev.scoring?.family ? (
            <Section title="Task family evidence" id="family">
              <FamilyEvidence evidence={ev} />
            </Section>
          ) : null}
          <Section title="Score and scorer evidence" id="scorer">
            <p className="text-sm text-slate-700">
              Scoring: <code>{fx.scoringType}</code> · {a.passed === null ? 'no verdict' : a.passed ? 'passed' : 'failed'}
              {a.score !== null ? ` · score ${a.score.toFixed(3)}` : ''}
            </p>
            <ScorerEvidence evidence={ev} />
            {a.judgeResults.length > 0 ? (
              <div>
                <h3 className="text-sm font-medium">Judge results</h3>
                <JsonBlock value={a.judgeResults.map((j) => ({ judgeConfigHash: j.judgeConfigHash, aggregateScore: j.aggregateScore, passed: j.passed, cached: j.cached, members: j.members }))} />
              </div>
            ) : null}
          </Section>
          <Section title="Sandbox commands and output" id="sandbox">
            {agentSandboxElsewhere ? (
              <p className="text-sm text-slate-600" data-testid="agent-sandbox">
                The agent ran its commands in this attempt&apos;s sandbox: each one, with its output and exit code, is a step of the trajectory above.
              </p>
            ) : (
              <SandboxEvidenceView sandbox={sandbox} />
            )}
          </Section>
        </>
      ) : (
        <p className="rounded border border-slate-200 bg-white p-4 text-sm text-slate-600">
          This attempt has no finished try yet ({reason}). Evidence appears when a worker finishes it.
        </p>
      )}

      <Section title="Repository state" id="repo">
        <p className="text-sm text-slate-600">
          Before the answer: the repository every attempt of this fixture starts from, as built when the campaign was planned (its hash is the
          fixture input hash below). After the answer: the same description read in this attempt&apos;s sandbox once the answer and the
          scorer&apos;s look-ups ran (attempts scored on text alone ran nothing, so there is no after).
        </p>
        {fx.repoState ? <Pre label="repository state before the answer">{fx.repoState}</Pre> : <p className="text-sm text-slate-500">Not recorded (legacy imports have none).</p>}
        {sandbox?.kind !== undefined && sandbox.kind !== 'none' && sandbox.evidence.repoStateAfter ? (
          <Pre label="repository state after the answer and the scorer's look-ups">{sandbox.evidence.repoStateAfter}</Pre>
        ) : null}
        {fx.setupLog ? (
          <details>
            <summary className="cursor-pointer text-sm text-slate-600">Setup log</summary>
            <Pre>{fx.setupLog}</Pre>
          </details>
        ) : null}
      </Section>

      {latest && (transcriptRecorded || !ranAsAgent) ? (
        <Section title="Transcript" id="transcript">
          <Transcript transcript={calls.transcript} />
        </Section>
      ) : null}

      <Section title="Hashes, route and sandbox" id="hashes">
        {a.campaign.legacy ? (
          <p className="text-sm text-slate-600">Imported from an upstream result file, which records no hashes and ran no sandbox: they show as &ldquo;—&rdquo;.</p>
        ) : null}
        <Facts
          testId="hashes"
          items={[
            ['attempt', a.id],
            ['fixture input hash', a.inputHash ?? fx.inputHash ?? DASH],
            ['fixture definition hash', (ev?.origin === 'gitbench' ? ev.scoring?.hashes.definition : undefined) ?? DASH],
            ['rendered prompt hash', a.promptHash ?? DASH],
            ['expected output hash', a.expectedHash ?? DASH],
            ['scorer config hash', a.scorerConfigHash ?? DASH],
            ['request config hash', a.requestConfigHash ?? DASH],
            ['model output hash', a.outputHash ?? DASH],
            ['sandbox image', a.sandboxImage ?? 'none (scored on text)'],
            ['GitBench (worker)', productVersion(a.productVersion, a.productDirty)],
            ['profile', a.target.profile],
            ['queued / started / finished', `${date(a.queuedAt)} / ${date(a.startedAt)} / ${date(a.finishedAt)}`],
          ]}
        />
        {latest ? (
          <div className="grid gap-3 lg:grid-cols-3">
            <div>
              <h3 className="text-sm font-medium">Provider route</h3>
              <JsonBlock value={calls.route} label="provider route" />
            </div>
            <div>
              <h3 className="text-sm font-medium">Request configuration</h3>
              <JsonBlock value={calls.requestConfig} label="request configuration" />
            </div>
            <div>
              <h3 className="text-sm font-medium">Provider retries and usage</h3>
              <JsonBlock value={calls.usage} label="retries and usage" />
            </div>
          </div>
        ) : null}
      </Section>

      <Section title={`Retry history (${a.tries.length} tr${a.tries.length === 1 ? 'y' : 'ies'})`} id="tries">
        <DataTable
          rows={a.tries}
          rowKey={(t) => t.id}
          testId="try-history"
          empty={<p className="text-sm text-slate-500">No try has finished yet.</p>}
          columns={[
            { header: 'Try', className: 'tabular-nums', cell: (t) => t.tryNumber },
            { header: 'Status', cell: (t) => <StatusBadge status={t.status} /> },
            { header: 'Worker', className: 'font-mono text-xs', cell: (t) => t.workerId },
            { header: 'Started', className: 'text-xs', cell: (t) => date(t.startedAt) },
            { header: 'Finished', className: 'text-xs', cell: (t) => date(t.finishedAt) },
            { header: 'Error', className: 'text-xs text-slate-700', cell: (t) => [t.errorClass, t.errorMessage].filter(Boolean).join(': ') || DASH },
          ]}
        />
      </Section>
    </div>
  );
}
