/**
 * Keyboard navigation in long lists (a trajectory's steps, long tables): j the next item, k the one
 * before, Enter opens the selected one. Never while the reader types (an input, a text area, a select,
 * editable text), never with a modifier held (browser and system shortcuts), and Enter only where it
 * would do nothing else (not on a focused link, button or summary, which Enter already activates).
 */
export type ListKey = 'next' | 'previous' | 'open';

export interface ListKeyEvent {
  key: string;
  ctrlKey: boolean;
  metaKey: boolean;
  altKey: boolean;
  defaultPrevented: boolean;
  target: unknown;
}

/** Where typing happens: keys there are text, not commands. */
const TYPING = new Set(['INPUT', 'TEXTAREA', 'SELECT']);
/** What Enter already activates when focused. */
const ACTIVATED_BY_ENTER = new Set(['A', 'BUTTON', 'SUMMARY']);

function tagOf(target: unknown): { tag: string; editable: boolean } {
  const el = target as { tagName?: unknown; isContentEditable?: unknown } | null;
  return {
    tag: typeof el?.tagName === 'string' ? el.tagName.toUpperCase() : '',
    editable: el?.isContentEditable === true,
  };
}

export function listKeyOf(e: ListKeyEvent): ListKey | null {
  if (e.defaultPrevented || e.ctrlKey || e.metaKey || e.altKey) return null;
  const { tag, editable } = tagOf(e.target);
  if (TYPING.has(tag) || editable) return null;
  if (e.key === 'j') return 'next';
  if (e.key === 'k') return 'previous';
  if (e.key === 'Enter' && !ACTIVATED_BY_ENTER.has(tag)) return 'open';
  return null;
}

/** The index after a move from `current` (-1: nothing selected yet) among `count` items, kept in range. */
export function movedIndex(current: number, key: 'next' | 'previous', count: number): number {
  if (count === 0) return -1;
  if (current < 0) return key === 'next' ? 0 : count - 1;
  return Math.min(count - 1, Math.max(0, current + (key === 'next' ? 1 : -1)));
}
