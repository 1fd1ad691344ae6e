'use client';

import { useEffect, useRef, type RefObject } from 'react';
import { listKeyOf, type ListKey } from '@/lib/keyboard/list-keys';

/** Marks the root of a list that j, k and Enter move through; "primary" wins over others on the page. */
export const LIST_KEYS_ATTRIBUTE = 'data-list-keys';

/**
 * Whether the list under `root` is the one the keys drive now: the one holding the focus, else, while
 * the focus is on no list, the page's primary list, else its first (in document order).
 */
function drives(root: HTMLElement): boolean {
  const focused = document.activeElement;
  const focusedList = focused && focused !== document.body ? focused.closest(`[${LIST_KEYS_ATTRIBUTE}]`) : null;
  if (focusedList) return focusedList === root;
  const lead =
    document.querySelector(`[${LIST_KEYS_ATTRIBUTE}="primary"]`) ?? document.querySelector(`[${LIST_KEYS_ATTRIBUTE}]`);
  return lead === root;
}

/**
 * Calls `onKey` for j, k and Enter (see listKeyOf) while the list under the returned ref is the one the
 * keys drive; a key it handles (returns true) does nothing else.
 */
export function useListKeys<T extends HTMLElement>(
  onKey: (key: ListKey) => boolean,
  enabled = true,
): RefObject<T | null> {
  const root = useRef<T>(null);
  const handler = useRef(onKey);
  useEffect(() => {
    handler.current = onKey;
  });
  useEffect(() => {
    if (!enabled) return;
    const listener = (e: KeyboardEvent) => {
      const key = listKeyOf(e);
      if (!key || !root.current || !drives(root.current)) return;
      if (handler.current(key)) e.preventDefault();
    };
    document.addEventListener('keydown', listener);
    return () => document.removeEventListener('keydown', listener);
  }, [enabled]);
  return root;
}
