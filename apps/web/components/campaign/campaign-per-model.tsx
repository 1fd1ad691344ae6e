import { EmptyState, Section } from '@/components/empty-state';
import { int, usd } from '@/components/format';
import { LeaderboardTable } from '@/components/leaderboard-table';
import { LocalTime } from '@/components/local-time';
import type { CampaignOverview, JudgeSpend } from '@/lib/queries/campaign';
import { noAttemptsYet } from './no-attempts';

/** What judging cost: operational context beside the targets' figures, never part of them. */
function JudgeSpendLine({ spend }: { spend: JudgeSpend }) {
  return (
    <p className="text-xs text-slate-600" data-testid="judge-spend">
      Judging: {spend.attempts} attempt{spend.attempts === 1 ? '' : 's'} decided by a judge with {spend.calls} model
      call{spend.calls === 1 ? '' : 's'}
      {spend.calls < spend.attempts
        ? ' (verdicts from the campaign’s cache or the scripted judge make none)'
        : ''}, {spend.totalTokens === null ? 'tokens unknown' : `${int(spend.totalTokens)} tokens`},{' '}
      {spend.costUsd === null ? 'cost unknown' : usd(spend.costUsd)}
      {spend.unknownCost > 0
        ? ` (${spend.unknownCost} attempt${spend.unknownCost === 1 ? '' : 's'} of unknown cost left out)`
        : ''}
      . Not counted in the targets&apos; cost above.
    </p>
  );
}

/** Every target's figures in this campaign, as of the stats' last refresh, with what judging cost beside them. */
export function CampaignPerModel({ o, linkModels }: { o: CampaignOverview; linkModels: boolean }) {
  const c = o.campaign;
  return (
    <Section
      title="Per model"
      id="per-model"
      aside={
        <span className="text-xs text-slate-500">
          figures as of <LocalTime at={o.statsRefreshedAt} />
        </span>
      }
    >
      {o.perModel.length === 0 ? (
        <EmptyState title="No attempts yet">{noAttemptsYet(c.status, c.statusDetail)}</EmptyState>
      ) : (
        <>
          <LeaderboardTable
            rows={o.perModel}
            showRank={false}
            filters={{ campaign: c.id }}
            testId="per-model"
            countCampaigns={false}
            linkModels={linkModels}
          />
          <p className="text-xs text-slate-500">
            Cost, tokens and API time: mean per complete trial round (every attempt of the round has a valid outcome),
            with the campaign total underneath. API time adds up time spent waiting on providers across parallel
            attempts; the wall clock above is the elapsed time.
          </p>
          {o.judging ? <JudgeSpendLine spend={o.judging} /> : null}
        </>
      )}
    </Section>
  );
}
