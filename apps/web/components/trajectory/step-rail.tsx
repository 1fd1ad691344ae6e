'use client';

import type { RefObject } from 'react';
import { countOf, repoChanged, stepFailed, stepNumber, type StepHead } from '@/lib/trajectory/view-model';
import { repoGist } from './repo-change';
import { VirtualList, type VirtualListHandle } from './virtual-list';

const RAIL_ROW = 30;

export interface StepRailProps {
  heads: StepHead[];
  target: number | null;
  hits: ReadonlySet<number>;
  jump: (index: number) => void;
  rail: RefObject<VirtualListHandle | null>;
}

/** Every step as one row (virtualised: a loop may take thousands), marked when it failed or changed the repository. */
export function StepRail({ heads, target, hits, jump, rail }: StepRailProps) {
  return (
    <aside className="rounded-lg border border-slate-200 bg-white lg:sticky lg:top-2 lg:self-start">
      <p className="border-b border-slate-200 px-2 py-1 text-xs text-slate-500">
        {countOf(heads.length, 'step')} · <span className="text-rose-700">✗ failed</span> ·{' '}
        <span className="text-violet-700">◆ repository changed</span>
      </p>
      <VirtualList
        ref={rail}
        count={heads.length}
        rowHeight={RAIL_ROW}
        heightClass="h-56 lg:h-[70vh]"
        label="Steps"
        testId="step-rail"
        renderRow={(i) => {
          const h = heads[i]!;
          const failed = stepFailed(h);
          const changed = repoChanged(h.repo, heads[i - 1]?.repo ?? null);
          return (
            <button
              type="button"
              onClick={() => jump(h.index)}
              title={repoGist(h.repo, heads[i - 1]?.repo ?? null)}
              className={
                'flex h-full w-full items-center gap-1.5 border-b border-slate-100 px-2 text-left text-xs ' +
                (h.index === target ? 'bg-sky-100' : hits.has(h.index) ? 'bg-yellow-100' : 'hover:bg-slate-50')
              }
            >
              <span className="w-8 shrink-0 text-right tabular-nums text-slate-500">{stepNumber(h.index)}</span>
              <span className={`w-3 shrink-0 ${failed ? 'text-rose-600' : 'text-transparent'}`}>✗</span>
              <span className={`w-3 shrink-0 ${changed ? 'text-violet-600' : 'text-transparent'}`}>◆</span>
              <span className="truncate font-mono text-slate-800">
                {h.calls.map((c) => c.label || c.name).join(' ; ') || (h.formatStrike ? '(no tool call)' : '—')}
              </span>
            </button>
          );
        }}
      />
    </aside>
  );
}
