'use client';

import Link from 'next/link';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import {
  alignByStep,
  stepFailed,
  stepNumber,
  type StepHead,
  type StepPart,
  type ViewStep,
} from '@/lib/trajectory/view-model';
import { repoGist } from './repo-change';
import { StepCard } from './step-card';
import { fetchStepPart, getJson, stepsUrl } from './trajectory-api';
import { VirtualList, type VirtualListHandle } from './virtual-list';

export interface CompareSideProps {
  attemptId: string;
  title: string;
  tryNumber: number;
  heads: StepHead[];
}

const ROW = 52;

/**
 * The two repositories are in a different state after this step: branch, status counts or an
 * operation in progress. Commit ids are left out: two agents that make the same commit at different
 * times get different ids, and that is not where they part.
 */
function statesDiffer(x: StepHead | null, y: StepHead | null): boolean {
  const a = x?.repo;
  const b = y?.repo;
  if (!x || !y) return false;
  if (!a || !b) return a !== b;
  return (
    a.branch !== b.branch ||
    a.staged !== b.staged ||
    a.unstaged !== b.unstaged ||
    a.untracked !== b.untracked ||
    a.conflicted !== b.conflicted ||
    a.operations.join() !== b.operations.join()
  );
}

function Cell({ head, prev }: { head: StepHead | null; prev: StepHead | null }) {
  if (!head) return <div className="px-2 text-xs italic text-slate-400">— no step —</div>;
  const failed = stepFailed(head);
  return (
    <div className="min-w-0 px-2 text-xs">
      <div className="flex items-center gap-1">
        <span className={failed ? 'text-rose-600' : 'text-emerald-600'}>{failed ? '✗' : '✓'}</span>
        <span className="truncate font-mono text-slate-800">
          {head.calls.map((c) => c.label || c.name).join(' ; ') || '(no tool call)'}
        </span>
      </div>
      <div className="truncate text-violet-800">
        {repoGist(head.repo, prev?.repo ?? null) || <span className="text-slate-400">repository unchanged</span>}
      </div>
    </div>
  );
}

async function loadStep(attemptId: string, tryNumber: number, index: number): Promise<ViewStep | null> {
  const r = await getJson<{ steps: ViewStep[] }>(stepsUrl(attemptId, tryNumber, { from: index, to: index + 1 })).catch(
    () => null,
  );
  return r?.steps[0] ?? null;
}

/**
 * Two trajectories aligned by step: each row holds what both agents did at that step and where each
 * left the repository; rows where the repositories differ are marked. Picking a row opens both
 * steps in full, side by side.
 */
export function CompareView({ a, b }: { a: CompareSideProps; b: CompareSideProps }) {
  const rows = useMemo(() => alignByStep(a.heads, b.heads), [a.heads, b.heads]);
  const firstDivergence = rows.findIndex((r) => statesDiffer(r.a, r.b));
  const firstFailureOnlyOne = rows.findIndex((r) => !!r.a && !!r.b && stepFailed(r.a) !== stepFailed(r.b));
  const [selected, setSelected] = useState<number | null>(null);
  const [steps, setSteps] = useState<{ a: ViewStep | null; b: ViewStep | null } | null>(null);
  const list = useRef<VirtualListHandle>(null);
  const [ready, setReady] = useState(false);
  useEffect(() => setReady(true), []);

  const open = useCallback(
    async (index: number) => {
      setSelected(index);
      list.current?.scrollToRow(index);
      setSteps(null);
      const [x, y] = await Promise.all([
        index < a.heads.length ? loadStep(a.attemptId, a.tryNumber, index) : null,
        index < b.heads.length ? loadStep(b.attemptId, b.tryNumber, index) : null,
      ]);
      setSteps({ a: x, b: y });
    },
    [a, b],
  );
  const fetchPart = (side: CompareSideProps) => (index: number, part: StepPart) =>
    fetchStepPart(side.attemptId, side.tryNumber, index, part);
  const button = 'rounded border border-slate-300 bg-white px-2 py-1 text-xs hover:bg-slate-50 disabled:opacity-40';
  const scale = Math.max(1, ...a.heads.map((h) => h.modelMs + h.toolMs), ...b.heads.map((h) => h.modelMs + h.toolMs));

  return (
    <div className="space-y-3" data-testid="compare-view" data-ready={ready ? 'true' : 'false'}>
      <div className="flex flex-wrap gap-2" role="toolbar" aria-label="Jump to">
        <button type="button" className={button} disabled={firstDivergence < 0} onClick={() => open(firstDivergence)}>
          First step where the repositories part
          {firstDivergence >= 0 ? ` (step ${stepNumber(firstDivergence)})` : ': none'}
        </button>
        <button
          type="button"
          className={button}
          disabled={firstFailureOnlyOne < 0}
          onClick={() => open(firstFailureOnlyOne)}
        >
          First step only one side failed
          {firstFailureOnlyOne >= 0 ? ` (step ${stepNumber(firstFailureOnlyOne)})` : ': none'}
        </button>
        <span className="self-center text-xs text-slate-500">
          {a.heads.length} vs {b.heads.length} steps ·{' '}
          <span className="text-amber-700">▌ repositories in a different state (branch, status, operation)</span>
        </span>
      </div>
      <div className="rounded-lg border border-slate-200 bg-white">
        <div
          className={
            'grid grid-cols-[3rem_1fr_1fr] border-b border-slate-200 ' +
            'bg-slate-50 text-xs font-medium text-slate-600'
          }
        >
          <div className="px-2 py-1">Step</div>
          <div className="px-2 py-1">
            <Link className="hover:underline" href={`/attempts/${a.attemptId}`}>
              A · {a.title}
            </Link>
          </div>
          <div className="px-2 py-1">
            <Link className="hover:underline" href={`/attempts/${b.attemptId}`}>
              B · {b.title}
            </Link>
          </div>
        </div>
        <VirtualList
          ref={list}
          count={rows.length}
          rowHeight={ROW}
          heightClass="h-[45vh]"
          label="Aligned steps"
          testId="aligned-steps"
          renderRow={(i) => {
            const r = rows[i]!;
            const differs = statesDiffer(r.a, r.b);
            return (
              <button
                type="button"
                onClick={() => open(i)}
                data-differs={differs ? 'true' : 'false'}
                className={
                  'grid h-full w-full grid-cols-[3rem_1fr_1fr] items-center border-b border-l-4 ' +
                  'border-b-slate-100 text-left ' +
                  `${differs ? 'border-l-amber-400' : 'border-l-transparent'} ` +
                  (selected === i ? 'bg-sky-100' : 'hover:bg-slate-50')
                }
              >
                <span className="px-2 text-xs tabular-nums text-slate-500">{i}</span>
                <Cell head={r.a} prev={a.heads[i - 1] ?? null} />
                <Cell head={r.b} prev={b.heads[i - 1] ?? null} />
              </button>
            );
          }}
        />
      </div>
      {selected !== null ? (
        <div className="grid gap-3 lg:grid-cols-2" data-testid="compare-steps">
          {(['a', 'b'] as const).map((k) => {
            const sideProps = k === 'a' ? a : b;
            const step = steps?.[k];
            return (
              <div key={k} className="min-w-0 space-y-1">
                <div className="text-xs font-medium text-slate-600">
                  {k.toUpperCase()} · step {stepNumber(selected)}
                </div>
                {!steps ? (
                  <p className="text-sm text-slate-500">Loading…</p>
                ) : step ? (
                  <StepCard
                    step={step}
                    prev={sideProps.heads[selected - 1] ?? null}
                    startMs={Date.parse(sideProps.heads[0]!.startedAt)}
                    scaleMs={scale}
                    highlight={false}
                    limitStep={null}
                    fetchPart={fetchPart(sideProps)}
                  />
                ) : (
                  <p className="text-sm text-slate-500">This trajectory has no step {stepNumber(selected)}.</p>
                )}
              </div>
            );
          })}
        </div>
      ) : (
        <p className="text-sm text-slate-500">Pick a row to see both steps in full.</p>
      )}
    </div>
  );
}
