import Link from 'next/link';
import { AgentSections } from '@/components/methodology/agents';
import { CountingSections } from '@/components/methodology/counting';
import { H } from '@/components/methodology/heading';
import { ProvenanceSections } from '@/components/methodology/provenance';
import { ResourceSections } from '@/components/methodology/resources';
import { MethodologyFamilies } from '@/components/methodology-families';
import { requirePublicPage } from '@/lib/auth/guard';
import { familySuites } from '@/lib/families/suites';

export const dynamic = 'force-dynamic';

export const metadata = { title: 'Methodology · GitBench' };

export default async function MethodologyPage() {
  const actor = await requirePublicPage();
  const suites = await familySuites();
  return (
    <article className="max-w-3xl space-y-3 text-sm leading-6 text-slate-800">
      <CountingSections />
      <ResourceSections />
      <AgentSections />
      <ProvenanceSections />
      <H id="families">Task families and their papers</H>
      <MethodologyFamilies suites={suites} linkFamilies={actor !== null} />
      <p className="pt-4">
        <Link className="text-indigo-700 underline" href="/">
          Back to the leaderboard
        </Link>
      </p>
    </article>
  );
}
