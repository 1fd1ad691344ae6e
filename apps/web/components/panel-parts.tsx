import type { ReactNode } from 'react';

/** The settings panels' pieces: an error line, a submit button, and a plain bordered table. */
export function ErrorNote({ error }: { error: string | null }) {
  if (!error) return null;
  return (
    <p className="rounded border border-rose-200 bg-rose-50 p-2 text-sm text-rose-800" role="alert">
      {error}
    </p>
  );
}

export function SubmitButton({ children }: { children: ReactNode }) {
  return (
    <button
      type="submit"
      className="rounded bg-indigo-600 px-3 py-1.5 text-sm font-medium text-white hover:bg-indigo-700"
    >
      {children}
    </button>
  );
}

export function PanelTable({ headers, testId, children }: { headers: string[]; testId: string; children: ReactNode }) {
  // In its own scrolling box: on a phone a wide list scrolls inside it instead of widening the page.
  return (
    <div className="overflow-x-auto rounded-lg border border-slate-200">
      <table className="w-full border-collapse bg-white text-sm" data-testid={testId}>
        <thead className="bg-slate-50 text-left text-xs uppercase text-slate-500">
          <tr>
            {headers.map((h) => (
              <th key={h} className="px-3 py-2 font-medium">
                {h}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>{children}</tbody>
      </table>
    </div>
  );
}

export const fieldInput = 'mt-1 rounded border border-slate-300 bg-white px-2 py-1.5 text-sm';
