import Link from 'next/link';
import { CampaignLinks } from '@/components/campaign-links';
import { ExportLinks } from '@/components/export-links';
import { plural } from '@/components/format';
import { filtersQuery, type DashboardFilters } from '@/lib/queries/filters';
import type { Leaderboard } from '@/lib/queries/leaderboard';

/**
 * What the leaderboard ranks and by which figure, and beside it the exports (signed in) or a note that
 * an anonymous reader sees published campaigns only.
 */
export function LeaderboardIntro({ signedIn, filters }: { signedIn: boolean; filters: DashboardFilters }) {
  return (
    <div className="flex flex-wrap items-end justify-between gap-4">
      <div>
        <h1 className="text-2xl font-semibold">Leaderboard</h1>
        <p className="mt-1 max-w-3xl text-sm text-slate-600">
          Targets (model × effort × output mode, and in agent mode the agent that drives the model) within each suite
          version, with their mean one-attempt success: passing valid attempts ÷ valid attempts, and its Wilson 95%
          interval. They are ranked by the interval&apos;s lower bound. Every figure shows its numerator and
          denominator; follow a model to its fixtures and attempts.{' '}
          <Link href="/methodology" className="text-indigo-700 underline">
            How the numbers are made
          </Link>
          .
        </p>
      </div>
      {signedIn ? (
        <ExportLinks
          href={(format) => `/api/export/leaderboard${filtersQuery(filters, { format })}`}
          what="leaderboard"
        />
      ) : (
        <p className="text-sm text-slate-600" data-testid="public-note">
          Published campaigns only.{' '}
          <Link className="text-indigo-700 underline" href="/sign-in">
            Sign in
          </Link>{' '}
          for models, fixtures and attempts.
        </p>
      )}
    </div>
  );
}

/** Says which campaigns the ranking rests on and which it leaves out, and why. */
export function InclusionNote({ board }: { board: Leaderboard }) {
  const { legacy, incomplete, running } = board.leftOut;
  const finishedIncomplete = incomplete - running.length;
  return (
    <div className="space-y-1 text-sm text-slate-600" data-testid="inclusion-note">
      <p>
        {plural(board.included.length, 'campaign')} included.
        {finishedIncomplete > 0 ? ` ${finishedIncomplete} incomplete campaign(s) left out.` : ''}
        {legacy > 0 ? ` ${legacy} legacy campaign(s) left out.` : ''}
        {finishedIncomplete + legacy > 0 ? ' Use the toggles above to include them.' : ''}
      </p>
      {running.length > 0 ? (
        <p className="text-sky-800" data-testid="running-note">
          Still running, joins the ranking when complete: <CampaignLinks campaigns={running} />.
        </p>
      ) : null}
    </div>
  );
}
