import Link from 'next/link';
import { DataTable } from '@/components/data-table';
import { Section } from '@/components/empty-state';
import { DASH, fixtureHref } from '@/components/format';
import { RateCell } from '@/components/rate-cell';
import type { CompareReport } from '@/lib/queries/compare';
import { SideLabel } from './compare-side';

type DomainRow = CompareReport['byDomain'][number];
type FixturePair = CompareReport['comparison']['pairs'][number];

/** A − B in percentage points, green where A is ahead. */
function DomainDiff({ diff }: { diff: DomainRow['diff'] }) {
  return (
    <span className={diff === null ? '' : diff > 0 ? 'text-emerald-700' : diff < 0 ? 'text-rose-700' : ''}>
      {diff === null ? DASH : `${diff > 0 ? '+' : ''}${(diff * 100).toFixed(1)} pts`}
    </span>
  );
}

/** Mean success of each side per domain, and the difference. */
export function DomainDifferences({ report }: { report: CompareReport }) {
  return (
    <Section title="Per domain" id="per-domain">
      <DataTable
        rows={report.byDomain}
        rowKey={(d) => d.domain}
        testId="compare-domains"
        columns={[
          { header: 'Domain', className: 'font-medium', cell: (d) => d.domain },
          {
            header: (
              <>
                A: <SideLabel side={report.a} />
              </>
            ),
            cell: (d) => <RateCell rate={d.a} />,
          },
          {
            header: (
              <>
                B: <SideLabel side={report.b} />
              </>
            ),
            cell: (d) => <RateCell rate={d.b} />,
          },
          {
            header: 'A − B',
            title: 'Difference in mean success, in percentage points',
            className: 'tabular-nums',
            cell: (d) => <DomainDiff diff={d.diff} />,
          },
        ]}
      />
    </Section>
  );
}

/** The McNemar pairs, those where the sides differ first: they are the ones that decide the test. */
export function FixturePairs({ report }: { report: CompareReport }) {
  const tally = (p: FixturePair, side: 'a' | 'b') => {
    const t = report.tallies[`${p.domain}/${p.fixtureId}`]?.[side];
    return `${t?.pass ?? 0} passed / ${t?.fail ?? 0} failed`;
  };
  return (
    <Section title="Per fixture (discordant first)" id="per-fixture">
      <DataTable
        rows={[...report.comparison.pairs].sort((x, y) => Number(x.first === x.second) - Number(y.first === y.second))}
        rowKey={(p) => `${p.domain}/${p.fixtureId}`}
        testId="compare-fixtures"
        dense
        caption={
          "Each side's outcome is the majority of its valid attempts on " +
          'the fixture (passes/fails in brackets). Highlighted rows differ.'
        }
        rowClassName={(p) => (p.first !== p.second ? 'bg-amber-50' : undefined)}
        columns={[
          {
            header: 'Fixture',
            cell: (p) => (
              <Link className="text-indigo-700 hover:underline" href={fixtureHref(p.domain, p.fixtureId)}>
                {p.domain}/{p.fixtureId}
              </Link>
            ),
          },
          { header: 'A', className: 'text-xs', cell: (p) => `${p.first} (${tally(p, 'a')})` },
          { header: 'B', className: 'text-xs', cell: (p) => `${p.second} (${tally(p, 'b')})` },
        ]}
      />
    </Section>
  );
}
