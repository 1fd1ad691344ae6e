import Link from 'next/link';
import { FAMILY_TITLES } from '@gitbench/core';
import { FAMILY_ABOUT, FamilyBoardView } from '@/components/family-board';
import { FamilyFilters } from '@/components/family-filters';
import { requirePage } from '@/lib/auth/guard';
import { listCampaigns } from '@/lib/queries/campaigns';
import { getFamilyBoards } from '@/lib/queries/families';
import { filtersQuery, parseFilters } from '@/lib/queries/filters';
import { services } from '@/lib/services';

export const dynamic = 'force-dynamic';
export const metadata = { title: 'Task families · GitBench' };

export default async function FamiliesPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  await requirePage('viewer');
  const filters = parseFilters(await searchParams);
  const { db } = services();
  const [boards, campaigns] = await Promise.all([getFamilyBoards(db, filters), listCampaigns(db)]);
  return (
    <div className="space-y-6">
      <div>
        <h1 className="text-2xl font-semibold">Task families</h1>
        <p className="mt-1 max-w-3xl text-sm text-slate-600">
          Three research benchmarks run here as families of their own, each scored with its paper&apos;s metrics. Every
          rate shows its numerator, denominator and Wilson 95% interval.{' '}
          <Link className="text-indigo-700 underline" href="/methodology#families">
            How they compare with the papers
          </Link>
          .
        </p>
      </div>
      <FamilyFilters action="/families" filters={filters} campaigns={campaigns} />
      {boards.map((board) => (
        <section
          key={board.family}
          aria-labelledby={`family-${board.family}`}
          className="space-y-2"
          data-testid={`family-section-${board.family}`}
        >
          <h2 id={`family-${board.family}`} className="text-lg font-semibold">
            <Link className="hover:underline" href={`/families/${board.family}${filtersQuery(filters)}`}>
              {FAMILY_TITLES[board.family]}
            </Link>
          </h2>
          <p className="max-w-3xl text-sm text-slate-600">{FAMILY_ABOUT[board.family]}</p>
          <FamilyBoardView board={board} filters={filters} detailed={false} />
        </section>
      ))}
    </div>
  );
}
