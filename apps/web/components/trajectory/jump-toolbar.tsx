'use client';

import { countOf, stepNumber, type jumpTargets } from '@/lib/trajectory/view-model';
import { KeysHint } from '../keys-hint';
import { VIEWER_BUTTON as button } from './viewer-button';

export interface JumpToolbarProps {
  jumps: ReturnType<typeof jumpTargets>;
  jump: (index: number) => void;
  steps: number;
  /** The exit status stops at a limit: its description. */
  limit: string | null;
  scorerCheck: { anchor: string; name: string } | null;
  /** While the loop runs: whether new steps are followed. */
  live: { follow: boolean; setFollow: (follow: boolean) => void } | null;
}

/** Jumps to the steps a reader looks for first: the first failure, the limit, the first conflict, the last step. */
export function JumpToolbar({ jumps, jump, steps, limit, scorerCheck, live }: JumpToolbarProps) {
  return (
    <div className="flex flex-wrap items-center gap-2" role="toolbar" aria-label="Jump to">
      <button
        type="button"
        className={button}
        disabled={jumps.firstFailure === null}
        onClick={() => jumps.firstFailure !== null && jump(jumps.firstFailure)}
      >
        First failing command{jumps.firstFailure !== null ? ` (step ${stepNumber(jumps.firstFailure)})` : ': none'}
      </button>
      {limit ? (
        <button
          type="button"
          className={button}
          disabled={jumps.limit === null}
          onClick={() => jumps.limit !== null && jump(jumps.limit)}
        >
          Limit that stopped the agent{jumps.limit !== null ? ` (step ${stepNumber(jumps.limit)})` : ''}
        </button>
      ) : null}
      {jumps.conflicts.length ? (
        <button type="button" className={button} onClick={() => jump(jumps.conflicts[0]!)}>
          First conflict (step {stepNumber(jumps.conflicts[0]!)})
        </button>
      ) : null}
      {scorerCheck ? (
        <a className={button} href={`#${scorerCheck.anchor}`}>
          Scorer&apos;s failing check: {scorerCheck.name}
        </a>
      ) : null}
      <button type="button" className={button} disabled={!steps} onClick={() => jump(steps - 1)}>
        Last step
      </button>
      <KeysHint what="step" />
      {live ? (
        <label className="ml-auto flex items-center gap-1 text-xs text-sky-800" data-testid="live-indicator">
          <span className="inline-block h-2 w-2 animate-pulse rounded-full bg-sky-500" aria-hidden /> Live:{' '}
          {countOf(steps, 'step')} so far ·
          <input type="checkbox" checked={live.follow} onChange={(e) => live.setFollow(e.target.checked)} /> follow
        </label>
      ) : null}
    </div>
  );
}
