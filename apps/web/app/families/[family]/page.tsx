import Link from 'next/link';
import { notFound } from 'next/navigation';
import { FAMILY_TITLES, isFamily } from '@gitbench/core';
import { FAMILY_ABOUT, FamilyBoardView } from '@/components/family-board';
import { FamilyFilters } from '@/components/family-filters';
import { requirePage } from '@/lib/auth/guard';
import { listCampaigns } from '@/lib/queries/campaigns';
import { getFamilyBoard } from '@/lib/queries/families';
import { parseFilters } from '@/lib/queries/filters';
import { services } from '@/lib/services';

export const dynamic = 'force-dynamic';

export default async function FamilyPage({
  params,
  searchParams,
}: {
  params: Promise<{ family: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  await requirePage('viewer');
  const { family } = await params;
  if (!isFamily(family)) notFound();
  const filters = parseFilters(await searchParams);
  const { db } = services();
  const campaigns = await listCampaigns(db);
  const board = await getFamilyBoard(db, family, filters, campaigns);
  return (
    <div className="space-y-5">
      <div>
        <p className="text-sm text-slate-500">
          <Link className="hover:underline" href="/families">
            Task families
          </Link>
        </p>
        <h1 className="text-2xl font-semibold">{FAMILY_TITLES[family]}</h1>
        <p className="mt-1 max-w-3xl text-sm text-slate-600">{FAMILY_ABOUT[family]}</p>
      </div>
      <FamilyFilters action={`/families/${family}`} filters={filters} campaigns={campaigns} />
      <FamilyBoardView board={board} filters={filters} detailed />
    </div>
  );
}
