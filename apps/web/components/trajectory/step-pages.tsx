'use client';

import { useMemo } from 'react';
import { STEP_PAGE, type StepHead, type StepPart, type ViewStep } from '@/lib/trajectory/view-model';
import { SearchQuery } from './highlighted';
import { StepCard } from './step-card';
import { VIEWER_BUTTON as button } from './viewer-button';

export interface StepPagesProps {
  heads: StepHead[];
  page: number;
  setPage: (page: number) => void;
  /** The page's full steps, undefined while they load. */
  steps: ViewStep[] | undefined;
  target: number | null;
  /** The limit that stopped the agent, and its step, for the marker on that step. */
  limit: { text: string; step: number | null } | null;
  fetchPart: (index: number, part: StepPart) => Promise<string>;
  /** The search on screen: every text of a step marks where it matched. */
  searchQuery: string | null;
}

/** The steps of one page in full, with paging. */
export function StepPages({ heads, page, setPage, steps, target, limit, fetchPart, searchQuery }: StepPagesProps) {
  const pageCount = Math.max(1, Math.ceil(heads.length / STEP_PAGE));
  const scaleMs = useMemo(() => heads.reduce((m, h) => Math.max(m, h.modelMs + h.toolMs), 1), [heads]);
  const startMs = heads[0] ? Date.parse(heads[0].startedAt) : 0;
  return (
    <div className="min-w-0 space-y-2">
      <nav className="flex items-center gap-2 text-xs text-slate-600" aria-label="Step pages">
        <button type="button" className={button} disabled={page === 0} onClick={() => setPage(page - 1)}>
          ← earlier
        </button>
        <span data-testid="step-page">
          {/* Numbered from 1, as the steps and the rail are. */}
          Steps {heads.length ? page * STEP_PAGE + 1 : 0}–{Math.min(heads.length, (page + 1) * STEP_PAGE)} of{' '}
          {heads.length}
        </span>
        <button type="button" className={button} disabled={page >= pageCount - 1} onClick={() => setPage(page + 1)}>
          later →
        </button>
      </nav>
      {!heads.length ? (
        <p className="rounded border border-slate-200 bg-white p-4 text-sm text-slate-600">
          No step has been recorded yet.
        </p>
      ) : !steps ? (
        <p className="text-sm text-slate-500">Loading steps…</p>
      ) : (
        <SearchQuery.Provider value={searchQuery}>
          {steps.map((s) => (
            <StepCard
              key={s.index}
              step={s}
              prev={heads[s.index - 1] ?? null}
              startMs={startMs}
              scaleMs={scaleMs}
              highlight={s.index === target}
              limitStep={limit && limit.step === s.index ? limit.text : null}
              fetchPart={fetchPart}
            />
          ))}
        </SearchQuery.Provider>
      )}
    </div>
  );
}
