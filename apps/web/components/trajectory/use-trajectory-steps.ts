'use client';

import { useRouter } from 'next/navigation';
import { useCallback, useEffect, useRef, useState } from 'react';
import { STEP_PAGE, type StepHead, type ViewStep } from '@/lib/trajectory/view-model';
import type { TrajectoryMeta } from '@/lib/queries/trajectory';
import { getJson, stepsUrl } from './trajectory-api';
import type { VirtualListHandle } from './virtual-list';

/** How often a running trajectory asks for new steps. */
const POLL_MS = 1_500;

export interface StepsStart {
  attemptId: string;
  meta: TrajectoryMeta;
  heads: StepHead[];
  initialPage: { page: number; steps: ViewStep[] };
  initialStep: number | null;
}

/**
 * The viewer's steps: the heads of every step, the pages of full steps fetched so far, the page on
 * screen and the step jumped to (kept in the URL as ?step=N), and, while the loop runs, new steps as
 * they are recorded.
 */
export function useTrajectorySteps(start: StepsStart) {
  const { attemptId } = start;
  const router = useRouter();
  const [meta, setMeta] = useState(start.meta);
  const [heads, setHeads] = useState(start.heads);
  const [pages, setPages] = useState<Record<number, ViewStep[]>>({ [start.initialPage.page]: start.initialPage.steps });
  const [page, setPage] = useState(start.initialPage.page);
  const [target, setTarget] = useState<number | null>(start.initialStep);
  const [error, setError] = useState<string | null>(null);
  const [follow, setFollow] = useState(start.meta.status === 'running');
  const rail = useRef<VirtualListHandle>(null);
  const tryNumber = meta.tryNumber;
  const live = meta.status === 'running';

  // The page on screen, fetched when it is not cached (a live page is dropped from the cache when it grows).
  useEffect(() => {
    if (pages[page]) return;
    let stale = false;
    getJson<{ steps: ViewStep[] }>(
      stepsUrl(attemptId, tryNumber, { from: page * STEP_PAGE, to: (page + 1) * STEP_PAGE }),
    )
      .then((r) => !stale && setPages((p) => ({ ...p, [page]: r.steps })))
      .catch((e: Error) => !stale && setError(`Could not load steps: ${e.message}`));
    return () => {
      stale = true;
    };
  }, [attemptId, tryNumber, page, pages]);

  // Once the target's page is on screen, bring the step into view.
  useEffect(() => {
    if (target === null || !pages[page]) return;
    document.getElementById(`step-${target}`)?.scrollIntoView({ block: 'start' });
    rail.current?.scrollToRow(target);
  }, [target, page, pages]);

  const jump = useCallback((index: number) => {
    setPage(Math.floor(index / STEP_PAGE));
    setTarget(index);
    const url = new URL(window.location.href);
    url.searchParams.set('step', String(index));
    window.history.replaceState(null, '', url);
  }, []);

  // Live: poll for steps after the last one held. Polling, not a stream: steps reach Postgres from
  // the worker with no notification, so a stream would poll the database on the server all the same,
  // hold a connection per reader, and need care behind proxies; a 1.5 s poll of heads is one indexed
  // query and stops by itself when the loop ends.
  const lastIndex = heads.at(-1)?.index ?? -1;
  useEffect(() => {
    if (!live) return;
    const timer = setInterval(async () => {
      try {
        const r = await getJson<{ status: TrajectoryMeta['status']; heads: StepHead[]; steps: number }>(
          stepsUrl(attemptId, tryNumber, { after: lastIndex }),
        );
        if (r.heads.length) {
          setHeads((h) => [...h, ...r.heads.filter((x) => x.index > (h.at(-1)?.index ?? -1))]);
          const touched = new Set(r.heads.map((x) => Math.floor(x.index / STEP_PAGE)));
          setPages((p) =>
            Object.fromEntries(
              Object.entries(p).filter(
                ([k]) => !touched.has(Number(k)) && Number(k) !== Math.floor(lastIndex / STEP_PAGE),
              ),
            ),
          );
          if (follow) {
            const newest = r.heads.at(-1)!.index;
            setPage(Math.floor(newest / STEP_PAGE));
            setTarget(newest);
          }
        }
        if (r.status !== 'running') {
          setMeta((m) => ({ ...m, status: r.status }));
          router.refresh();
        }
      } catch (e) {
        setError(`Live updates paused: ${(e as Error).message}`);
      }
    }, POLL_MS);
    return () => clearInterval(timer);
  }, [live, attemptId, tryNumber, lastIndex, follow, router]);

  return {
    meta,
    heads,
    page,
    setPage,
    steps: pages[page],
    target,
    jump,
    error,
    setError,
    follow,
    setFollow,
    live,
    rail,
  };
}
