'use client';

import { movedIndex } from '@/lib/keyboard/list-keys';
import type { StepHead } from '@/lib/trajectory/view-model';
import { useListKeys } from '../use-list-keys';

/**
 * j and k move through the steps (their pages follow), Enter opens the selected step: its collapsed
 * reasoning and arguments unfold and it takes the focus, so Tab reaches its buttons next.
 */
export function useStepKeys(heads: StepHead[], target: number | null, jump: (index: number) => void) {
  return useListKeys<HTMLDivElement>((key) => {
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
}
