import type { ReactNode } from 'react';
import { SortableTable, type SortValue } from './sortable-table';

/**
 * The dashboard's one table: bordered, scrolls sideways on narrow screens, header cells with optional
 * explanations, and an empty state of the caller's choosing instead of an empty table. Columns with a
 * `sort` sort in the browser (SortableTable), and a long table given `search` gets a search box.
 */
export interface Column<T> {
  /** Column heading. */
  header: ReactNode;
  /** What the column means, shown on hover; the methodology page explains every column at length. */
  title?: string;
  cell: (row: T, index: number) => ReactNode;
  /** Extra classes for this column's cells (e.g. "tabular-nums", "text-xs"). */
  className?: string;
  /** What the column sorts by: makes its header a sort button. Unknown (null) sorts last. */
  sort?: (row: T) => SortValue | undefined;
}

/** From this many rows a table with `search` shows its search box. */
export const SEARCH_FROM = 10;

export function DataTable<T>({
  rows,
  columns,
  rowKey,
  testId,
  caption,
  empty,
  rowClassName,
  dense = false,
  search,
  searchLabel = 'the table',
}: {
  rows: readonly T[];
  columns: readonly Column<T>[];
  rowKey: (row: T, index: number) => string;
  testId?: string;
  /** Visible caption above the header: what the table shows, in one sentence. */
  caption?: ReactNode;
  /** Shown instead of the table when there are no rows. */
  empty?: ReactNode;
  rowClassName?: (row: T) => string | undefined;
  dense?: boolean;
  /**
   * A search box once the table is long: it finds rows by their sortable text columns, and by the
   * text this function gives, when one is given.
   */
  search?: boolean | ((row: T) => string);
  /** What the search box searches, for its accessible name ("campaigns"). */
  searchLabel?: string;
}) {
  if (rows.length === 0 && empty !== undefined) return <>{empty}</>;
  const pad = dense ? 'px-3 py-1.5' : 'px-3 py-2';
  if (search || columns.some((c) => c.sort)) {
    return (
      <SortableTable
        headers={columns.map((c) => ({ header: c.header, title: c.title, sortable: c.sort !== undefined }))}
        rows={rows.map((row, i) => {
          const values = columns.map((c) => c.sort?.(row) ?? null);
          return {
            key: rowKey(row, i),
            className: rowClassName?.(row),
            cells: columns.map((c) => ({ node: c.cell(row, i), className: c.className })),
            values,
            text: [...values.filter((v) => typeof v === 'string'), typeof search === 'function' ? search(row) : '']
              .join(' ')
              .toLowerCase(),
          };
        })}
        search={Boolean(search) && rows.length >= SEARCH_FROM}
        searchLabel={searchLabel}
        testId={testId}
        caption={caption}
        pad={pad}
      />
    );
  }
  return (
    <div className="overflow-x-auto rounded-lg border border-slate-200 bg-white">
      <table className="min-w-full text-sm" data-testid={testId}>
        {caption ? <caption className="px-3 pt-2 text-left text-xs text-slate-500">{caption}</caption> : null}
        <thead className="bg-slate-50 text-left text-xs uppercase tracking-wide text-slate-500">
          <tr>
            {columns.map((c, i) => (
              <th key={i} scope="col" className={`${pad} align-bottom font-semibold`} title={c.title}>
                {c.header}
              </th>
            ))}
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {rows.map((row, i) => (
            <tr key={rowKey(row, i)} className={`align-top ${rowClassName?.(row) ?? ''}`}>
              {columns.map((c, j) => (
                <td key={j} className={`${pad} ${c.className ?? ''}`}>
                  {c.cell(row, i)}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
