'use client';

import { useEffect, useMemo, useState, type ReactNode } from 'react';
import { movedIndex } from '@/lib/keyboard/list-keys';
import { KeysHint } from './keys-hint';
import { LIST_KEYS_ATTRIBUTE, useListKeys } from './use-list-keys';

/**
 * The client half of DataTable: the server renders every cell and hands over, per cell, the value a
 * column sorts by; this sorts and searches those rows in the browser, with no round trip. Sorting is
 * a button in each sortable header (Tab, then Enter or Space), announced through aria-sort. A long
 * table (one with a search box) also takes j and k to select the next or previous row, and Enter to
 * follow the selected row's first link.
 */
export interface SortableHeader {
  header: ReactNode;
  title?: string | undefined;
  sortable: boolean;
}

export type SortValue = string | number | null;

export interface SortableRow {
  key: string;
  className?: string | undefined;
  cells: { node: ReactNode; className?: string | undefined }[];
  /** Per column: what it sorts by; null sorts last whichever the direction. */
  values: SortValue[];
  /** Lower-cased text the search box matches against. */
  text: string;
}

type Sort = { column: number; direction: 'ascending' | 'descending' } | null;

function compare(a: SortValue, b: SortValue): number {
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  return String(a).localeCompare(String(b), undefined, { numeric: true, sensitivity: 'base' });
}

export function SortableTable({
  headers,
  rows,
  search,
  searchLabel,
  testId,
  caption,
  pad,
}: {
  headers: SortableHeader[];
  rows: SortableRow[];
  search: boolean;
  searchLabel: string;
  testId?: string | undefined;
  caption?: ReactNode;
  pad: string;
}) {
  const [sort, setSort] = useState<Sort>(null);
  const [query, setQuery] = useState('');
  const shown = useMemo(() => {
    const q = query.trim().toLowerCase();
    const matching = q ? rows.filter((r) => r.text.includes(q)) : rows;
    if (!sort) return matching;
    const sign = sort.direction === 'ascending' ? 1 : -1;
    // Array.prototype.sort is stable: equal values keep the server's order (the ranking, the newest first).
    return [...matching].sort((x, y) => {
      const a = x.values[sort.column] ?? null;
      const b = y.values[sort.column] ?? null;
      if (a === null || b === null) return a === b ? 0 : a === null ? 1 : -1;
      return sign * compare(a, b);
    });
  }, [rows, sort, query]);

  const [selected, setSelected] = useState<string | null>(null);
  const rowOf = (root: HTMLElement | null, key: string) =>
    root?.querySelector<HTMLTableRowElement>(`tr[data-row-key="${CSS.escape(key)}"]`) ?? null;
  const keysRoot = useListKeys<HTMLDivElement>((key) => {
    if (!shown.length) return false;
    const current = selected === null ? -1 : shown.findIndex((r) => r.key === selected);
    if (key === 'open') {
      const link = current < 0 ? null : rowOf(keysRoot.current, selected!)?.querySelector<HTMLAnchorElement>('a[href]');
      if (!link) return false;
      link.click();
      return true;
    }
    setSelected(shown[movedIndex(current, key, shown.length)]!.key);
    return true;
  }, search);
  useEffect(() => {
    if (selected !== null) rowOf(keysRoot.current, selected)?.scrollIntoView({ block: 'nearest' });
  }, [selected, keysRoot]);

  const toggle = (column: number) =>
    setSort((s) => {
      if (s?.column === column) return { column, direction: s.direction === 'ascending' ? 'descending' : 'ascending' };
      // Figures read best from the highest; names from A.
      const numeric = rows.some((r) => typeof r.values[column] === 'number');
      return { column, direction: numeric ? 'descending' : 'ascending' };
    });

  return (
    <div className="space-y-2" ref={keysRoot} {...(search ? { [LIST_KEYS_ATTRIBUTE]: '' } : {})}>
      {search ? (
        <div className="flex flex-wrap items-center gap-2 text-sm">
          <input
            type="search"
            value={query}
            onChange={(e) => setQuery(e.target.value)}
            placeholder="Search"
            aria-label={`Search ${searchLabel}`}
            className={
              'w-64 max-w-full rounded border border-slate-300 bg-white ' +
              'px-2 py-1 text-sm focus:outline-2 focus:outline-indigo-500'
            }
          />
          <span
            className="text-xs text-slate-500"
            aria-live="polite"
            data-testid={testId ? `${testId}-count` : undefined}
          >
            {query.trim() ? `${shown.length} of ${rows.length} rows` : `${rows.length} rows`}
          </span>
          <KeysHint what="row" />
        </div>
      ) : null}
      <div className="overflow-x-auto rounded-lg border border-slate-200 bg-white">
        <table className="min-w-full text-sm" data-testid={testId}>
          {caption ? <caption className="px-3 pt-2 text-left text-xs text-slate-500">{caption}</caption> : null}
          <thead className="bg-slate-50 text-left text-xs uppercase tracking-wide text-slate-500">
            <tr>
              {headers.map((h, i) => {
                const active = sort?.column === i ? sort.direction : undefined;
                return (
                  <th
                    key={i}
                    scope="col"
                    className={`${pad} align-bottom font-semibold`}
                    title={h.title}
                    aria-sort={h.sortable ? (active ?? 'none') : undefined}
                  >
                    {h.sortable ? (
                      <button
                        type="button"
                        onClick={() => toggle(i)}
                        className={
                          'inline-flex items-end gap-1 text-left uppercase tracking-wide hover:text-slate-800 ' +
                          'focus:outline-2 focus:outline-offset-2 focus:outline-indigo-500'
                        }
                      >
                        <span>{h.header}</span>
                        <span aria-hidden className={active ? 'text-indigo-700' : 'text-slate-300'}>
                          {active === 'ascending' ? '▲' : active === 'descending' ? '▼' : '↕'}
                        </span>
                      </button>
                    ) : (
                      h.header
                    )}
                  </th>
                );
              })}
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100">
            {shown.map((row) => (
              <tr
                key={row.key}
                data-row-key={row.key}
                data-selected={row.key === selected ? 'true' : undefined}
                className={
                  `align-top ${row.className ?? ''} ` +
                  (row.key === selected ? 'bg-sky-50 outline outline-2 -outline-offset-2 outline-sky-400' : '')
                }
              >
                {row.cells.map((c, j) => (
                  <td key={j} className={`${pad} ${c.className ?? ''}`}>
                    {c.node}
                  </td>
                ))}
              </tr>
            ))}
            {shown.length === 0 ? (
              <tr>
                <td colSpan={headers.length} className={`${pad} text-slate-500`}>
                  No row matches &ldquo;{query.trim()}&rdquo;.
                </td>
              </tr>
            ) : null}
          </tbody>
        </table>
      </div>
    </div>
  );
}
