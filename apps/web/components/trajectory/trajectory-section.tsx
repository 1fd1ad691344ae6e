import Link from 'next/link';
import { describeExitStatus, isAgentExitStatus } from '@gitbench/core';
import type { TrajectoryView } from '@/lib/queries/trajectory';
import { byteSize, stepNumber, type ViewStep } from '@/lib/trajectory/view-model';
import { DASH, duration, int, usd } from '../format';
import { TrajectoryViewer } from './trajectory-viewer';

function Fact({ label, value, testId }: { label: string; value: React.ReactNode; testId?: string }) {
  return (
    <div className="rounded border border-slate-200 bg-white px-2 py-1">
      <div className="text-[11px] text-slate-500">{label}</div>
      <div className="text-sm font-medium tabular-nums" data-testid={testId}>
        {value}
      </div>
    </div>
  );
}

/** The agent's trajectory on the attempt page: what stopped it, its totals, and the step viewer. */
export function TrajectorySection({
  attemptId,
  view,
  page,
  initialStep,
  scorerCheck,
}: {
  attemptId: string;
  view: TrajectoryView;
  page: { page: number; steps: ViewStep[] };
  initialStep: number | null;
  scorerCheck: { anchor: string; name: string } | null;
}) {
  const { meta } = view;
  const exit = meta.exitStatus && isAgentExitStatus(meta.exitStatus) ? meta.exitStatus : null;
  const limit = exit && view.jumps.limit !== null ? describeExitStatus(exit) : null;
  const tryQuery = view.tries.length > 1 ? `?try=${meta.tryNumber}` : '';
  return (
    <section aria-labelledby="trajectory" className="space-y-3">
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h2 id="trajectory" className="text-lg font-semibold">
          Agent trajectory
        </h2>
        <div className="flex flex-wrap gap-2 text-sm">
          <Link
            className="rounded border border-slate-300 bg-white px-2 py-1 hover:bg-slate-50"
            href={`/attempts/${attemptId}/compare`}
          >
            Compare with another attempt
          </Link>
          <a
            className="rounded border border-slate-300 bg-white px-2 py-1 hover:bg-slate-50"
            href={`/api/attempts/${attemptId}/trajectory.atif.json${tryQuery}`}
            download={`${attemptId}.atif.json`}
          >
            Export ATIF v1.4 JSON
          </a>
        </div>
      </div>
      <p className="text-sm text-slate-700" data-testid="trajectory-summary">
        {meta.agent === meta.model ? meta.model : `${meta.agent} (${meta.model})`} · tools {meta.toolSet}
        {meta.protocol ? ` · ${meta.protocol} tool calls` : ''} ·{' '}
        {meta.status === 'running' ? (
          <strong className="text-sky-700">running</strong>
        ) : meta.status === 'abandoned' ? (
          <strong className="text-amber-700">abandoned (its worker died)</strong>
        ) : exit ? (
          <>
            ended: <strong className={limit ? 'text-rose-700' : 'text-slate-900'}>{exit.replace(/_/g, ' ')}</strong> (
            {describeExitStatus(exit)}
            {meta.exitStep !== null ? `, at step ${stepNumber(meta.exitStep)}` : ''})
          </>
        ) : (
          'finished'
        )}
        {meta.exitDetail ? ` · ${meta.exitDetail}` : ''}
      </p>
      {view.tries.length > 1 ? (
        <nav className="flex gap-2 text-xs" aria-label="Tries with a trajectory">
          <span className="text-slate-500">Tries:</span>
          {view.tries.map((t) =>
            t === meta.tryNumber ? (
              <span key={t} className="rounded bg-slate-900 px-2 py-0.5 text-white">
                {t}
              </span>
            ) : (
              <Link
                key={t}
                className="rounded bg-slate-100 px-2 py-0.5 hover:bg-slate-200"
                href={`/attempts/${attemptId}?try=${t}#trajectory`}
              >
                {t}
              </Link>
            ),
          )}
        </nav>
      ) : null}
      <div className="grid grid-cols-2 gap-2 sm:grid-cols-4 lg:grid-cols-8">
        <Fact label="Steps" value={int(meta.steps)} testId="trajectory-steps" />
        <Fact label="Tool calls" value={int(meta.toolCalls)} />
        <Fact label="Failed steps" value={int(meta.failedSteps)} />
        <Fact label="Format strikes" value={int(meta.formatStrikes)} />
        <Fact label="Tokens in / out" value={`${int(meta.inputTokens)} / ${int(meta.outputTokens)}`} />
        <Fact label="Cost" value={meta.costUsd === null ? DASH : usd(meta.costUsd)} />
        <Fact
          label="Model / tool time"
          value={
            <>
              <span className="text-indigo-700">{duration(meta.modelMs)}</span> /{' '}
              <span className="text-teal-700">{duration(meta.toolMs)}</span>
            </>
          }
        />
        <Fact label="Tool output" value={byteSize(meta.outputBytes)} />
      </div>
      <TrajectoryViewer
        key={`${meta.id}:${meta.status}`}
        attemptId={attemptId}
        meta={meta}
        heads={view.heads}
        initialPage={page}
        initialStep={initialStep}
        limit={limit}
        scorerCheck={scorerCheck}
      />
    </section>
  );
}
