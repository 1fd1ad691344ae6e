import { roleAtLeast } from '@gitbench/core';
import { CompletenessPanel } from '@/components/completeness-panel';
import { Section } from '@/components/empty-state';
import { ReviewPanel } from '@/components/review-panel';
import { publicLeaderboard, type Actor } from '@/lib/auth/guard';
import type { CampaignOverview } from '@/lib/queries/campaign';

/**
 * What the campaign's figures can be trusted for, and under it the safety review and publishing that a
 * signed-in reader acts on (none for a legacy import).
 */
export function CampaignCompleteness({ o, actor }: { o: CampaignOverview; actor: Actor | null }) {
  const c = o.campaign;
  return (
    <Section title="Completeness" id="completeness-title">
      <CompletenessPanel completeness={o.completeness} legacy={c.legacy} safetyReview={c.safetyReview} />
      {c.legacy || !actor ? null : (
        <div className="mt-3">
          <ReviewPanel
            campaignId={c.id}
            safetyReview={c.safetyReview}
            publishedAt={c.publishedAt?.toISOString() ?? null}
            publishedBy={c.publishedBy}
            canAct={roleAtLeast(actor.role, 'member')}
            finished={c.status !== 'PLANNING' && c.status !== 'RUNNING'}
            publicLeaderboard={publicLeaderboard()}
          />
        </div>
      )}
    </Section>
  );
}
