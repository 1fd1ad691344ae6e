'use client';

import { useCallback, useEffect, useMemo, useState } from 'react';
import { jumpTargets, type StepHead, type StepPart, type ViewStep } from '@/lib/trajectory/view-model';
import type { TrajectoryMeta } from '@/lib/queries/trajectory';
import { JumpToolbar } from './jump-toolbar';
import { SearchBar } from './search-bar';
import { StepPages } from './step-pages';
import { StepRail } from './step-rail';
import { fetchStepPart } from './trajectory-api';
import { LIST_KEYS_ATTRIBUTE } from '../use-list-keys';
import { useStepKeys } from './use-step-keys';
import { useTrajectorySearch } from './use-trajectory-search';
import { useTrajectorySteps } from './use-trajectory-steps';

export interface ViewerProps {
  attemptId: string;
  meta: TrajectoryMeta;
  heads: StepHead[];
  /** The page of steps the server already rendered, and its number. */
  initialPage: { page: number; steps: ViewStep[] };
  /** The step the URL asked for (?step=N), highlighted and scrolled to. */
  initialStep: number | null;
  /** The exit status stops at a limit: its description, for the marker on that step. */
  limit: string | null;
  /** Anchor and name of the scorer's first failing check on this page, if one failed. */
  scorerCheck: { anchor: string; name: string } | null;
}

/** One try's trajectory: jumps, search, a rail of every step, and the steps of one page in full. */
export function TrajectoryViewer({
  attemptId,
  meta: initialMeta,
  heads: initialHeads,
  initialPage,
  initialStep,
  limit,
  scorerCheck,
}: ViewerProps) {
  const view = useTrajectorySteps({ attemptId, meta: initialMeta, heads: initialHeads, initialPage, initialStep });
  const { meta, heads, target, jump } = view;
  const search = useTrajectorySearch(attemptId, meta.tryNumber, jump, view.setError);
  const keysRoot = useStepKeys(heads, target, jump);
  // Set once the viewer runs in the browser: until then its buttons do nothing (tests wait for it).
  const [ready, setReady] = useState(false);
  useEffect(() => setReady(true), []);

  const jumps = useMemo(
    () => jumpTargets(heads, limit ? { limit: true, exitStep: meta.exitStep } : null),
    [heads, limit, meta.exitStep],
  );
  const hits = useMemo(() => new Set(search.search?.hits.map((h) => h.index)), [search.search]);
  const fetchPart = useCallback(
    (index: number, part: StepPart) => fetchStepPart(attemptId, meta.tryNumber, index, part),
    [attemptId, meta.tryNumber],
  );

  return (
    <div
      ref={keysRoot}
      {...{ [LIST_KEYS_ATTRIBUTE]: 'primary' }}
      className="space-y-3"
      data-testid="trajectory-viewer"
      data-ready={ready ? 'true' : 'false'}
    >
      <JumpToolbar
        jumps={jumps}
        jump={jump}
        steps={heads.length}
        limit={limit}
        scorerCheck={scorerCheck}
        live={view.live ? { follow: view.follow, setFollow: view.setFollow } : null}
      />
      <SearchBar {...search} target={target} jump={jump} />
      {view.error ? (
        <p className="rounded border border-rose-200 bg-rose-50 p-2 text-sm text-rose-900">{view.error}</p>
      ) : null}

      <div className="grid gap-3 lg:grid-cols-[18rem_1fr]">
        <StepRail heads={heads} target={target} hits={hits} jump={jump} rail={view.rail} />
        <StepPages
          heads={heads}
          page={view.page}
          setPage={view.setPage}
          steps={view.steps}
          target={target}
          limit={limit ? { text: limit, step: jumps.limit } : null}
          fetchPart={fetchPart}
          searchQuery={search.search?.query ?? null}
        />
      </div>
    </div>
  );
}
