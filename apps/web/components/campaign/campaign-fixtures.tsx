import Link from 'next/link';
import { CampaignFixtureTable } from '@/components/campaign-fixture-table';
import { Section } from '@/components/empty-state';
import { SelectForm } from '@/components/select-form';
import type { CampaignOverview, FixtureTable } from '@/lib/queries/campaign';
import { noAttemptsYet } from './no-attempts';

/** The campaign's fixtures with their attempts, one page at a time, narrowed to a domain if asked. */
export function CampaignFixtures({
  o,
  table,
  domain,
}: {
  o: CampaignOverview;
  table: FixtureTable;
  domain: string | undefined;
}) {
  const c = o.campaign;
  return (
    <Section
      title={`Fixtures (${table.total})`}
      id="fixtures"
      aside={
        <SelectForm
          formLabel="Filter fixtures by domain"
          label="Domain"
          name="domain"
          value={domain ?? ''}
          options={[{ value: '', label: 'All' }, ...o.domains.map((d) => ({ value: d, label: d }))]}
        />
      }
    >
      <CampaignFixtureTable
        campaignId={c.id}
        targets={o.targets}
        table={table}
        domain={domain}
        noAttempts={noAttemptsYet(c.status, c.statusDetail)}
      />
    </Section>
  );
}

/** In place of the fixtures for an anonymous reader: the attempts are for signed-in readers only. */
export function SignInForFixtures({ campaignId }: { campaignId: string }) {
  return (
    <p className="text-sm text-slate-600" data-testid="public-note">
      Aggregates of a published campaign.{' '}
      <Link
        className="text-indigo-700 underline"
        href={`/sign-in?next=${encodeURIComponent(`/campaigns/${campaignId}`)}`}
      >
        Sign in
      </Link>{' '}
      for its fixtures and attempts.
    </p>
  );
}
