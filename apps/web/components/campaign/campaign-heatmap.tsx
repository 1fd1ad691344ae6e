import { Section } from '@/components/empty-state';
import { Heatmap } from '@/components/heatmap';
import type { CampaignOverview } from '@/lib/queries/campaign';

/** Mean success of every target in every domain, once the campaign has any. */
export function CampaignHeatmap({ o }: { o: CampaignOverview }) {
  if (o.heatmap.length === 0) return null;
  return (
    <Section title="Mean success by model and domain" id="heatmap-title">
      <Heatmap
        targets={o.targets}
        domains={o.domains}
        cell={(targetId, d) => o.heatmap.find((h) => h.targetId === targetId && h.domain === d)?.rate}
      />
    </Section>
  );
}
