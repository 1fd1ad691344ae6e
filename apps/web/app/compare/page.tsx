import { CompareForm } from '@/components/compare/compare-form';
import { parseSide } from '@/components/compare/compare-side';
import { DomainDifferences, FixturePairs } from '@/components/compare/compare-tables';
import { McNemarSummary } from '@/components/compare/mcnemar-summary';
import { EmptyState } from '@/components/empty-state';
import { compareModels } from '@/lib/queries/compare';
import { parseFilters } from '@/lib/queries/filters';
import { listModels } from '@/lib/queries/model';
import { services } from '@/lib/services';
import { requirePage } from '@/lib/auth/guard';

export const dynamic = 'force-dynamic';

export default async function ComparePage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  await requirePage('viewer');
  const sp = await searchParams;
  const filters = parseFilters(sp);
  const { db } = services();
  const targets = await listModels(db);
  const a = parseSide(sp.a);
  const b = parseSide(sp.b);
  const report = a && b ? await compareModels(db, a, b, filters) : null;
  // The pickers show what the URL says, even a value that names no target.
  const chosen = { a: typeof sp.a === 'string' ? sp.a : '', b: typeof sp.b === 'string' ? sp.b : '' };
  return (
    <div className="space-y-6">
      <div>
        <h1 className="text-2xl font-semibold">Compare two targets</h1>
        <p className="mt-1 max-w-3xl text-sm text-slate-600">
          Differences per domain, and an exact McNemar test on the fixtures both ran: one pair per fixture, each
          side&apos;s outcome the majority of its valid attempts there.
        </p>
      </div>
      <CompareForm targets={targets} chosen={chosen} filters={filters} />
      {!report ? (
        <EmptyState title="Choose two targets">
          Pick a model and output mode for each side, then press Compare.
        </EmptyState>
      ) : (
        <>
          <McNemarSummary report={report} />
          <DomainDifferences report={report} />
          <FixturePairs report={report} />
        </>
      )}
    </div>
  );
}
