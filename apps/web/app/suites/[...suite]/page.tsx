import Link from 'next/link';
import { notFound } from 'next/navigation';
import { Section } from '@/components/empty-state';
import { ControlsNote, counted, DISCRIMINATION_TITLE, ItemTable } from '@/components/item-analysis';
import { suiteHref } from '@/components/suite-link';
import { SuiteCalibrationNote } from '@/components/suite-calibration-note';
import { suiteCalibrationLine } from '@/lib/calibration';
import { suiteRecords } from '@/lib/campaigns/suites';
import { requirePage } from '@/lib/auth/guard';
import { getSuiteItemAnalysis } from '@/lib/queries/item-analysis';
import { services } from '@/lib/services';

export const dynamic = 'force-dynamic';

export default async function SuitePage({
  params,
  searchParams,
}: {
  params: Promise<{ suite: string[] }>;
  searchParams: Promise<Record<string, string | undefined>>;
}) {
  await requirePage('viewer');
  const suite = (await params).suite.map(decodeURIComponent).join('/');
  const includeControls = (await searchParams).controls === '1';
  const [analysis, records] = await Promise.all([
    getSuiteItemAnalysis(services().db, suite, { includeControls }),
    suiteRecords(),
  ]);
  if (!analysis) notFound();
  const count = (f: 'saturated' | 'unsolved' | 'flaky') => analysis.items.filter((i) => i.flags[f]).length;
  const exportHref = (format: string) =>
    `/api/export/items?suite=${encodeURIComponent(suite)}&format=${format}${includeControls ? '&controls=1' : ''}`;
  return (
    <div className="space-y-6">
      <div>
        <p className="text-sm text-slate-500">
          <Link className="hover:underline" href="/suites">
            Suites
          </Link>
        </p>
        <h1 className="font-mono text-2xl font-semibold">{suite}</h1>
        <p className="mt-1 max-w-3xl text-sm text-slate-600">
          {counted(analysis.items.length, 'fixture')} scored over {counted(analysis.targets, 'target')} in{' '}
          {counted(analysis.campaigns.length, 'campaign')}. {count('saturated')} saturated, {count('unsolved')}{' '}
          unsolved, {count('flaky')} flaky. Only scored attempts count (the settling try of each); excluded ones are no
          evidence about a target.
        </p>
        <ControlsNote controls={analysis.controls} href={suiteHref(suite)} />
        <SuiteCalibrationNote line={suiteCalibrationLine(records.find((r) => r.suite === suite))} />
      </div>
      <Section
        title="Which fixtures carry signal"
        id="items"
        aside={
          <span className="space-x-3 text-sm">
            <a className="text-indigo-700 hover:underline" href={exportHref('csv')}>
              Export CSV
            </a>
            <a className="text-indigo-700 hover:underline" href={exportHref('json')}>
              Export JSON
            </a>
          </span>
        }
      >
        <p className="max-w-3xl text-xs text-slate-500">
          Most signal first. {DISCRIMINATION_TITLE}{' '}
          <Link className="text-indigo-700 hover:underline" href="/methodology#item-analysis">
            How it is measured
          </Link>
        </p>
        <ItemTable items={analysis.items} />
      </Section>
    </div>
  );
}
