'use client';

import { useState } from 'react';
import type { SearchHit } from '@/lib/trajectory/view-model';
import { getJson, searchUrl } from './trajectory-api';

export interface TrajectorySearch {
  query: string;
  hits: SearchHit[];
  truncated: boolean;
}

/** Searching one try's steps on the server; the first hit is jumped to. */
export function useTrajectorySearch(
  attemptId: string,
  tryNumber: number,
  jump: (index: number) => void,
  onError: (message: string) => void,
) {
  const [query, setQuery] = useState('');
  const [search, setSearch] = useState<TrajectorySearch | null>(null);
  const [searching, setSearching] = useState(false);

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
      onError(`Search failed: ${(err as Error).message}`);
    } finally {
      setSearching(false);
    }
  }

  return { query, setQuery, search, searching, runSearch };
}
