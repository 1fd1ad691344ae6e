import Link from 'next/link';
import { EmptyState } from '@/components/empty-state';

/**
 * An empty leaderboard says why: nothing published yet (anonymous reader), no campaign at all (how to
 * make one), or campaigns that the filters or the default rules leave out.
 */
export function NothingToRank({
  campaigns,
  signedIn,
  leftOut,
}: {
  /** Campaigns the reader may see, before the filters. */
  campaigns: number;
  signedIn: boolean;
  /** Legacy and incomplete campaigns the default rules left out. */
  leftOut: number;
}) {
  if (campaigns === 0 && !signedIn)
    return (
      <EmptyState title="No published campaigns yet">Campaigns appear here once their team publishes them.</EmptyState>
    );
  if (campaigns === 0)
    return (
      <EmptyState title="No campaigns yet">
        Launch one from the{' '}
        <Link className="text-indigo-700 underline" href="/campaigns/new">
          new campaign form
        </Link>{' '}
        (the oracle, mock and simulated models need no API key), or import upstream results with{' '}
        <code>npx gitbench import-legacy &lt;files…&gt;</code>. Check services on the{' '}
        <Link className="text-indigo-700 underline" href="/status">
          system status
        </Link>{' '}
        page.
      </EmptyState>
    );
  return (
    <EmptyState title="Nothing to rank with these filters">
      {leftOut > 0
        ? 'Every matching campaign is still running, incomplete or legacy, and those are ' +
          'left out of rankings by default. Tick the toggles above to see them anyway.'
        : 'No campaign has results for this selection. Widen the filters.'}
    </EmptyState>
  );
}
