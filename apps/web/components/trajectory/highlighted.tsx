'use client';

import { createContext, useContext } from 'react';
import { matchParts } from '@/lib/trajectory/view-model';

/** The search the reader ran over the trajectory: every text of a step marks where it matches. */
export const SearchQuery = createContext<string | null>(null);

/** The text, with each match of the current search marked. */
export function Highlighted({ text }: { text: string }) {
  const parts = matchParts(text, useContext(SearchQuery));
  if (!parts.some((p) => p.match)) return <>{text}</>;
  return (
    <>
      {parts.map((p, i) =>
        p.match ? (
          <mark key={i} data-testid="search-match" className="rounded-sm bg-yellow-300 px-px text-slate-950">
            {p.text}
          </mark>
        ) : (
          p.text
        ),
      )}
    </>
  );
}
