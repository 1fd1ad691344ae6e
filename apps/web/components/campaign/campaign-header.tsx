import Link from 'next/link';
import { isSimulatedModelId } from '@gitbench/core';
import { CopyButton } from '@/components/copy-button';
import { ExportLinks } from '@/components/export-links';
import { duration, plural, productVersion } from '@/components/format';
import { LocalTime } from '@/components/local-time';
import { LegacyBadge, SimulatedBadge, StatusBadge } from '@/components/status-badge';
import type { Actor } from '@/lib/auth/guard';
import type { CampaignOverview } from '@/lib/queries/campaign';

/** Who made the campaign and when, its shape, and what it took: the line under the name. */
function CampaignFacts({ o, actor }: { o: CampaignOverview; actor: Actor | null }) {
  const c = o.campaign;
  const shape = `${plural(c.trials, 'trial')} · ${plural(o.targets.length, 'target')} × ${o.fixtureCount} fixtures`;
  const seeded = `${shape} · seed ${c.seed}`;
  return (
    <p className="text-sm text-slate-600">
      {actor ? `By ${c.createdBy} · ` : ''}created <LocalTime at={c.createdAt} /> · suite {c.suiteVersion} · {seeded} ·
      wall clock {c.legacy ? '— (not recorded for imports)' : duration(o.wallClockMs)}
    </p>
  );
}

/** Why a legacy or simulated campaign's figures claim less than a measured one's. */
function CaveatNotes({ legacy, simulated }: { legacy: boolean; simulated: boolean }) {
  return (
    <>
      {legacy ? (
        <p className="rounded border border-violet-200 bg-violet-50 p-3 text-sm text-violet-900">
          A legacy campaign imported from an upstream result file: one trial and no repeated-trial evidence, so no
          stability classification or pass_any_at_n is claimed for it. It is never in default rankings.
        </p>
      ) : null}
      {simulated ? (
        <p className="rounded border border-orange-200 bg-orange-50 p-3 text-sm text-orange-900">
          Targets marked simulated are answered by a seeded coin, not by a model: their figures show how flaky fixtures
          and pass_any_at_n look, and say nothing about any model.
        </p>
      ) : null}
    </>
  );
}

/**
 * The campaign's name, status and provenance (config hash, product version), with its exports for a
 * signed-in reader; an anonymous one is led back to the leaderboard instead of the campaign list.
 */
export function CampaignHeader({ o, actor }: { o: CampaignOverview; actor: Actor | null }) {
  const c = o.campaign;
  const simulated = o.targets.some((t) => isSimulatedModelId(t.modelId));
  return (
    <div className="space-y-2">
      <p className="text-sm text-slate-500">
        <Link href={actor ? '/campaigns' : '/'} className="hover:underline">
          {actor ? 'Campaigns' : 'Leaderboard'}
        </Link>{' '}
        / {c.id} <CopyButton text={c.id} label="campaign id" />
      </p>
      <h1 className="flex flex-wrap items-center gap-2 text-2xl font-semibold">
        {c.name} <StatusBadge status={c.status} /> {c.legacy ? <LegacyBadge /> : null}{' '}
        {simulated ? <SimulatedBadge /> : null}
      </h1>
      <CampaignFacts o={o} actor={actor} />
      <p className="break-all font-mono text-xs text-slate-500" data-testid="campaign-hashes">
        config hash {c.configHash} <CopyButton text={c.configHash} label="config hash" /> · GitBench{' '}
        {productVersion(c.productVersion, c.productDirty)}
      </p>
      {c.statusDetail ? <p className="text-sm text-rose-700">{c.statusDetail}</p> : null}
      <CaveatNotes legacy={c.legacy} simulated={simulated} />
      {actor ? (
        <ExportLinks
          href={(format) => `/api/export/campaigns/${c.id}?format=${format}`}
          what="attempts of this campaign"
          noun="attempts"
          extra={[{ href: `/api/export/campaigns/${c.id}?format=aa`, label: 'Export artificialanalysis rows (CSV)' }]}
        />
      ) : null}
    </div>
  );
}
