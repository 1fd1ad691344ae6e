import { notFound } from 'next/navigation';
import { attemptStatusReason, isAttemptStatus } from '@gitbench/core';
import { AttemptHashes, callsOf } from '@/components/attempt/attempt-hashes';
import { AttemptHeader } from '@/components/attempt/attempt-header';
import { AttemptMetrics } from '@/components/attempt/attempt-metrics';
import { RepositoryState } from '@/components/attempt/repository-state';
import { failingCheckOf } from '@/components/attempt/scorer-evidence';
import { TryEvidence } from '@/components/attempt/try-evidence';
import { TryHistory } from '@/components/attempt/try-history';
import { Section } from '@/components/empty-state';
import { Transcript } from '@/components/transcript';
import { TrajectorySection } from '@/components/trajectory/trajectory-section';
import { TrajectoryWaiting } from '@/components/trajectory/trajectory-waiting';
import { requirePage } from '@/lib/auth/guard';
import { getAttemptEvidence, tryEvidence } from '@/lib/queries/attempt';
import { getStepRange, getTrajectoryView } from '@/lib/queries/trajectory';
import { services } from '@/lib/services';
import { countOf, STEP_PAGE } from '@/lib/trajectory/view-model';

export const dynamic = 'force-dynamic';

type SearchParams = Record<string, string | string[] | undefined>;

/** A query parameter as a step or try number, or undefined when absent or not one. */
function indexParam(value: string | string[] | undefined): number | undefined {
  const n = typeof value === 'string' && /^\d{1,7}$/.test(value) ? Number(value) : NaN;
  return Number.isFinite(n) ? n : undefined;
}

/** The attempt's trajectory, the page of steps around the one asked for (?step=), and which try (?try=). */
async function loadTrajectory(id: string, query: SearchParams) {
  const db = services().db;
  const view = await getTrajectoryView(db, id, indexParam(query.try));
  if (!view) return null;
  const askedStep = indexParam(query.step);
  const initialStep = askedStep !== undefined && askedStep < view.heads.length ? askedStep : null;
  const page = Math.floor((initialStep ?? 0) / STEP_PAGE);
  const range = { from: page * STEP_PAGE, to: (page + 1) * STEP_PAGE, tryNumber: view.meta.tryNumber };
  const steps = (await getStepRange(db, id, range)) ?? [];
  return { view, initialStep, page: { page, steps } };
}

export default async function AttemptPage({
  params,
  searchParams,
}: {
  params: Promise<{ id: string }>;
  searchParams: Promise<SearchParams>;
}) {
  const actor = await requirePage('viewer');
  const { id } = await params;
  const query = await searchParams;
  const [found, trajectory] = await Promise.all([
    getAttemptEvidence(services().db, id, actor.role),
    loadTrajectory(id, query),
  ]);
  if (!found) notFound();
  // Raw outputs (prompt, answer, transcript, command output, error messages) reach viewers only once the
  // campaign is published, after its safety review: the query leaves them out (see getAttemptEvidence).
  const { attempt: a, rawHidden } = found;
  const latest = a.tries[0];
  const parsed = rawHidden ? null : tryEvidence(latest?.evidence);
  const ev = parsed?.ok ? parsed.record : null;
  const sandbox = ev?.origin === 'gitbench' ? ev.sandbox : null;
  const calls = callsOf(ev);
  // An agent's commands and its conversation are the trajectory's steps: the single-answer sections'
  // "no sandbox ran" and "no transcript" would contradict it.
  const ranAsAgent = Boolean(trajectory) || a.outputMode === 'agent';
  const agentSandboxElsewhere = ranAsAgent && (!sandbox || sandbox.kind === 'none');
  const transcriptRecorded = Array.isArray(calls.transcript) && calls.transcript.length > 0;
  const reason = isAttemptStatus(a.status) ? attemptStatusReason(a.status) : a.status;

  return (
    <div className="space-y-8">
      <AttemptHeader data={found} reason={reason} />
      <AttemptMetrics a={a} />

      {ev?.origin === 'gitbench' && ev.warnings?.length ? (
        <ul
          className="rounded border border-amber-300 bg-amber-50 p-3 text-sm text-amber-900"
          data-testid="evidence-warnings"
        >
          {ev.warnings.map((w) => (
            <li key={w}>{w}</li>
          ))}
        </ul>
      ) : null}

      {trajectory && rawHidden ? (
        <p
          className="rounded border border-slate-200 bg-white p-3 text-sm text-slate-600"
          data-testid="trajectory-hidden"
        >
          This attempt ran as an agent ({countOf(trajectory.view.meta.steps, 'step')}). Its trajectory is shown to
          viewers once the campaign is published, after its safety review.
        </p>
      ) : trajectory ? (
        <TrajectorySection
          attemptId={a.id}
          view={trajectory.view}
          page={trajectory.page}
          initialStep={trajectory.initialStep}
          scorerCheck={failingCheckOf(ev)}
        />
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
          The raw outputs of this attempt (prompt, answer, transcript and command output) are shown to viewers once its
          campaign is published, after its safety review.
        </p>
      ) : latest ? (
        <TryEvidence a={a} ev={ev} sandbox={sandbox} agentSandboxElsewhere={agentSandboxElsewhere} />
      ) : (
        <p className="rounded border border-slate-200 bg-white p-4 text-sm text-slate-600">
          This attempt has no finished try yet ({reason}). Evidence appears when a worker finishes it.
        </p>
      )}

      <RepositoryState fx={a.fixtureSnapshot} sandbox={sandbox} />

      {latest && (transcriptRecorded || !ranAsAgent) ? (
        <Section title="Transcript" id="transcript">
          <Transcript transcript={calls.transcript} />
        </Section>
      ) : null}

      <AttemptHashes a={a} ev={ev} finished={latest !== undefined} />
      <TryHistory tries={a.tries} />
    </div>
  );
}
