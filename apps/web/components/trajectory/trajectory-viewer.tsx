'use client';

import { useRouter } from 'next/navigation';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { countOf, jumpTargets, repoChanged, STEP_PAGE, stepFailed, stepNumber, type SearchHit, type StepHead, type StepPart, type ViewStep } from '@/lib/trajectory/view-model';
import type { TrajectoryMeta } from '@/lib/queries/trajectory';
import { repoGist } from './repo-change';
import { fetchStepPart, getJson, searchUrl, stepsUrl } from './trajectory-api';
import { SearchQuery } from './highlighted';
import { StepCard } from './step-card';
import { VirtualList, type VirtualListHandle } from './virtual-list';
import { LIST_KEYS_ATTRIBUTE, useListKeys } from '../use-list-keys';
import { KeysHint } from '../keys-hint';
import { movedIndex } from '@/lib/keyboard/list-keys';

/** How often a running trajectory asks for new steps. */
const POLL_MS = 1_500;
const RAIL_ROW = 30;

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

export function TrajectoryViewer({ attemptId, meta: initialMeta, heads: initialHeads, initialPage, initialStep, limit, scorerCheck }: ViewerProps) {
  const router = useRouter();
  const [meta, setMeta] = useState(initialMeta);
  const [heads, setHeads] = useState(initialHeads);
  const [pages, setPages] = useState<Record<number, ViewStep[]>>({ [initialPage.page]: initialPage.steps });
  const [page, setPage] = useState(initialPage.page);
  const [target, setTarget] = useState<number | null>(initialStep);
  const [error, setError] = useState<string | null>(null);
  const [follow, setFollow] = useState(initialMeta.status === 'running');
  const [query, setQuery] = useState('');
  const [search, setSearch] = useState<{ query: string; hits: SearchHit[]; truncated: boolean } | null>(null);
  const [searching, setSearching] = useState(false);
  const rail = useRef<VirtualListHandle>(null);
  // Set once the viewer runs in the browser: until then its buttons do nothing (tests wait for it).
  const [ready, setReady] = useState(false);
  useEffect(() => setReady(true), []);
  const tryNumber = meta.tryNumber;
  const live = meta.status === 'running';

  const pageCount = Math.max(1, Math.ceil(heads.length / STEP_PAGE));
  const jumps = useMemo(() => jumpTargets(heads, limit ? { limit: true, exitStep: meta.exitStep } : null), [heads, limit, meta.exitStep]);
  const hitSet = useMemo(() => new Set(search?.hits.map((h) => h.index)), [search]);
  const scaleMs = useMemo(() => heads.reduce((m, h) => Math.max(m, h.modelMs + h.toolMs), 1), [heads]);
  const startMs = heads[0] ? Date.parse(heads[0].startedAt) : 0;

  // The page on screen, fetched when it is not cached (a live page is dropped from the cache when it grows).
  useEffect(() => {
    if (pages[page]) return;
    let stale = false;
    getJson<{ steps: ViewStep[] }>(stepsUrl(attemptId, tryNumber, { from: page * STEP_PAGE, to: (page + 1) * STEP_PAGE }))
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
        const r = await getJson<{ status: TrajectoryMeta['status']; heads: StepHead[]; steps: number }>(stepsUrl(attemptId, tryNumber, { after: lastIndex }));
        if (r.heads.length) {
          setHeads((h) => [...h, ...r.heads.filter((x) => x.index > (h.at(-1)?.index ?? -1))]);
          const touched = new Set(r.heads.map((x) => Math.floor(x.index / STEP_PAGE)));
          setPages((p) => Object.fromEntries(Object.entries(p).filter(([k]) => !touched.has(Number(k)) && Number(k) !== Math.floor(lastIndex / STEP_PAGE))));
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

  // j and k move through the steps (their pages follow), Enter opens the selected step: its collapsed
  // reasoning and arguments unfold and it takes the focus, so Tab reaches its buttons next.
  const keysRoot = useListKeys<HTMLDivElement>((key) => {
    if (!heads.length) return false;
    if (key === 'open') {
      const card = target === null ? null : document.getElementById(`step-${target}`);
      if (!card) return false;
      for (const d of card.querySelectorAll('details')) d.open = true;
      card.focus({ preventScroll: true });
      return true;
    }
    const current = target === null ? -1 : heads.findIndex((h) => h.index === target);
    jump(heads[movedIndex(current, key, heads.length)]!.index);
    return true;
  });

  const fetchPart = useCallback((index: number, part: StepPart) => fetchStepPart(attemptId, tryNumber, index, part), [attemptId, tryNumber]);

  async function runSearch(e: React.FormEvent) {
    e.preventDefault();
    const q = query.trim();
    if (!q) return setSearch(null);
    setSearching(true);
    try {
      const r = await getJson<{ hits: SearchHit[]; truncated: boolean }>(searchUrl(attemptId, tryNumber, q));
      setSearch({ query: q, ...r });
      if (r.hits[0]) jump(r.hits[0].index);
    } catch (err) {
      setError(`Search failed: ${(err as Error).message}`);
    } finally {
      setSearching(false);
    }
  }

  const steps = pages[page];
  const button = 'rounded border border-slate-300 bg-white px-2 py-1 text-xs text-slate-800 hover:bg-slate-50 disabled:cursor-not-allowed disabled:opacity-40';
  const hitIndex = search && target !== null ? search.hits.findIndex((h) => h.index === target) : -1;

  return (
    <div ref={keysRoot} {...{ [LIST_KEYS_ATTRIBUTE]: 'primary' }} className="space-y-3" data-testid="trajectory-viewer" data-ready={ready ? 'true' : 'false'}>
      <div className="flex flex-wrap items-center gap-2" role="toolbar" aria-label="Jump to">
        <button type="button" className={button} disabled={jumps.firstFailure === null} onClick={() => jumps.firstFailure !== null && jump(jumps.firstFailure)}>
          First failing command{jumps.firstFailure !== null ? ` (step ${stepNumber(jumps.firstFailure)})` : ': none'}
        </button>
        {limit ? (
          <button type="button" className={button} disabled={jumps.limit === null} onClick={() => jumps.limit !== null && jump(jumps.limit)}>
            Limit that stopped the agent{jumps.limit !== null ? ` (step ${stepNumber(jumps.limit)})` : ''}
          </button>
        ) : null}
        {jumps.conflicts.length ? (
          <button type="button" className={button} onClick={() => jump(jumps.conflicts[0]!)}>
            First conflict (step {stepNumber(jumps.conflicts[0]!)})
          </button>
        ) : null}
        {scorerCheck ? (
          <a className={button} href={`#${scorerCheck.anchor}`}>
            Scorer&apos;s failing check: {scorerCheck.name}
          </a>
        ) : null}
        <button type="button" className={button} disabled={!heads.length} onClick={() => jump(heads.length - 1)}>
          Last step
        </button>
        <KeysHint what="step" />
        {live ? (
          <label className="ml-auto flex items-center gap-1 text-xs text-sky-800" data-testid="live-indicator">
            <span className="inline-block h-2 w-2 animate-pulse rounded-full bg-sky-500" aria-hidden /> Live: {countOf(heads.length, 'step')} so far ·
            <input type="checkbox" checked={follow} onChange={(e) => setFollow(e.target.checked)} /> follow
          </label>
        ) : null}
      </div>

      <form onSubmit={runSearch} className="flex flex-wrap items-center gap-2" role="search">
        <input
          type="search"
          value={query}
          onChange={(e) => setQuery(e.target.value)}
          placeholder="Search messages, commands, outputs and diffs"
          aria-label="Search the trajectory"
          className="w-80 rounded border border-slate-300 px-2 py-1 text-sm"
        />
        <button type="submit" className={button} disabled={searching}>
          {searching ? 'Searching…' : 'Search'}
        </button>
        {search ? (
          <span className="text-xs text-slate-600" data-testid="search-summary">
            {search.hits.length}
            {search.truncated ? '+' : ''} step{search.hits.length === 1 ? '' : 's'} match &ldquo;{search.query}&rdquo;
            {search.hits.length ? (
              <>
                {' '}
                <button type="button" className={button} onClick={() => jump(search.hits[(hitIndex - 1 + search.hits.length) % search.hits.length]!.index)}>
                  ↑ previous
                </button>{' '}
                <button type="button" className={button} onClick={() => jump(search.hits[(hitIndex + 1) % search.hits.length]!.index)}>
                  ↓ next
                </button>
              </>
            ) : null}
          </span>
        ) : null}
      </form>
      {search?.hits.length ? (
        <ul className="flex max-h-24 flex-wrap gap-1 overflow-auto" aria-label="Search results" data-testid="search-hits">
          {search.hits.map((h) => (
            <li key={h.index}>
              <button type="button" className={`rounded px-1.5 py-0.5 text-xs ${h.index === target ? 'bg-yellow-300' : 'bg-yellow-100 hover:bg-yellow-200'}`} onClick={() => jump(h.index)}>
                step {stepNumber(h.index)} <span className="text-slate-500">({h.fields.join(', ')})</span>
              </button>
            </li>
          ))}
        </ul>
      ) : null}
      {error ? <p className="rounded border border-rose-200 bg-rose-50 p-2 text-sm text-rose-900">{error}</p> : null}

      <div className="grid gap-3 lg:grid-cols-[18rem_1fr]">
        <aside className="rounded-lg border border-slate-200 bg-white lg:sticky lg:top-2 lg:self-start">
          <p className="border-b border-slate-200 px-2 py-1 text-xs text-slate-500">
            {countOf(heads.length, 'step')} · <span className="text-rose-700">✗ failed</span> · <span className="text-violet-700">◆ repository changed</span>
          </p>
          <VirtualList
            ref={rail}
            count={heads.length}
            rowHeight={RAIL_ROW}
            height="70vh"
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
                  className={`flex h-full w-full items-center gap-1.5 border-b border-slate-100 px-2 text-left text-xs ${h.index === target ? 'bg-sky-100' : hitSet.has(h.index) ? 'bg-yellow-100' : 'hover:bg-slate-50'}`}
                >
                  <span className="w-8 shrink-0 text-right tabular-nums text-slate-500">{stepNumber(h.index)}</span>
                  <span className={`w-3 shrink-0 ${failed ? 'text-rose-600' : 'text-transparent'}`}>✗</span>
                  <span className={`w-3 shrink-0 ${changed ? 'text-violet-600' : 'text-transparent'}`}>◆</span>
                  <span className="truncate font-mono text-slate-800">{h.calls.map((c) => c.label || c.name).join(' ; ') || (h.formatStrike ? '(no tool call)' : '—')}</span>
                </button>
              );
            }}
          />
        </aside>

        <div className="min-w-0 space-y-2">
          <nav className="flex items-center gap-2 text-xs text-slate-600" aria-label="Step pages">
            <button type="button" className={button} disabled={page === 0} onClick={() => setPage(page - 1)}>
              ← earlier
            </button>
            <span data-testid="step-page">
              Steps {heads.length ? page * STEP_PAGE : 0}–{Math.min(heads.length, (page + 1) * STEP_PAGE) - 1} of {heads.length}
            </span>
            <button type="button" className={button} disabled={page >= pageCount - 1} onClick={() => setPage(page + 1)}>
              later →
            </button>
          </nav>
          {!heads.length ? (
            <p className="rounded border border-slate-200 bg-white p-4 text-sm text-slate-600">No step has been recorded yet.</p>
          ) : !steps ? (
            <p className="text-sm text-slate-500">Loading steps…</p>
          ) : (
            // Every text of a step marks where the search matched.
            <SearchQuery.Provider value={search?.query ?? null}>
              {steps.map((s) => (
                <StepCard
                  key={s.index}
                  step={s}
                  prev={heads[s.index - 1] ?? null}
                  startMs={startMs}
                  scaleMs={scaleMs}
                  highlight={s.index === target}
                  limitStep={limit && jumps.limit === s.index ? limit : null}
                  fetchPart={fetchPart}
                />
              ))}
            </SearchQuery.Provider>
          )}
        </div>
      </div>
    </div>
  );
}
