import type { ReactNode } from 'react';

/**
 * The dashboard's one table: bordered, scrolls sideways on narrow screens, header cells with optional
 * explanations, and an empty state of the caller's choosing instead of an empty table.
 */
export interface Column<T> {
  /** Column heading. */
  header: ReactNode;
  /** What the column means, shown on hover; the methodology page explains every column at length. */
  title?: string;
  cell: (row: T, index: number) => ReactNode;
  /** Extra classes for this column's cells (e.g. "tabular-nums", "text-xs"). */
  className?: string;
}

export function DataTable<T>({
  rows,
  columns,
  rowKey,
  testId,
  caption,
  empty,
  rowClassName,
  dense = false,
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
}) {
  if (rows.length === 0 && empty !== undefined) return <>{empty}</>;
  const pad = dense ? 'px-3 py-1.5' : 'px-3 py-2';
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
