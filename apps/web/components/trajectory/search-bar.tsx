'use client';

import { stepNumber } from '@/lib/trajectory/view-model';
import type { TrajectorySearch } from './use-trajectory-search';
import { VIEWER_BUTTON as button } from './viewer-button';

export interface SearchBarProps {
  query: string;
  setQuery: (query: string) => void;
  search: TrajectorySearch | null;
  searching: boolean;
  runSearch: (e: React.FormEvent) => void;
  target: number | null;
  jump: (index: number) => void;
}

/** The search form, what it found, and a button per step that matches. */
export function SearchBar({ query, setQuery, search, searching, runSearch, target, jump }: SearchBarProps) {
  const hitIndex = search && target !== null ? search.hits.findIndex((h) => h.index === target) : -1;
  return (
    <>
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
                <button
                  type="button"
                  className={button}
                  onClick={() => jump(search.hits[(hitIndex - 1 + search.hits.length) % search.hits.length]!.index)}
                >
                  ↑ previous
                </button>{' '}
                <button
                  type="button"
                  className={button}
                  onClick={() => jump(search.hits[(hitIndex + 1) % search.hits.length]!.index)}
                >
                  ↓ next
                </button>
              </>
            ) : null}
          </span>
        ) : null}
      </form>
      {search?.hits.length ? (
        <ul
          className="flex max-h-24 flex-wrap gap-1 overflow-auto"
          aria-label="Search results"
          data-testid="search-hits"
        >
          {search.hits.map((h) => (
            <li key={h.index}>
              <button
                type="button"
                className={
                  `rounded px-1.5 py-0.5 ` +
                  `text-xs ${h.index === target ? 'bg-yellow-300' : 'bg-yellow-100 hover:bg-yellow-200'}`
                }
                onClick={() => jump(h.index)}
              >
                step {stepNumber(h.index)} <span className="text-slate-500">({h.fields.join(', ')})</span>
              </button>
            </li>
          ))}
        </ul>
      ) : null}
    </>
  );
}
