import { LocalTime } from '@/components/local-time';
import { checkServices } from '@/lib/services';
import { requirePage } from '@/lib/auth/guard';

export const dynamic = 'force-dynamic';

export default async function StatusPage() {
  await requirePage('viewer');
  const checks = await checkServices();
  const allOk = checks.every((c) => c.ok);
  const down = checks.filter((c) => !c.ok && !c.unknown).length;
  const unknown = checks.filter((c) => c.unknown).length;
  return (
    <section aria-labelledby="status-title" className="space-y-6">
      <div>
        <div className="flex flex-wrap items-center justify-between gap-3">
          <h1 id="status-title" className="text-2xl font-semibold">
            System status
          </h1>
          {/* A plain link: the page runs every check when it is served, so loading it again is the refresh. */}
          <a
            href="/status"
            className="rounded border border-slate-300 bg-white px-3 py-1.5 text-sm hover:bg-slate-50"
            data-testid="status-refresh"
          >
            Check again
          </a>
        </div>
        <p className={`mt-1 text-sm ${allOk ? 'text-emerald-700' : 'text-rose-700'}`} data-testid="status-summary">
          {allOk
            ? `All ${checks.length} services are reachable.`
            : `${down} of ${checks.length} services are not reachable${unknown ? `; ${unknown} unknown` : ''}.`}
        </p>
      </div>
      <ul className="divide-y divide-slate-200 rounded-lg border border-slate-200 bg-white">
        {checks.map((c) => (
          <li
            key={c.name}
            className="flex flex-wrap items-start gap-x-4 gap-y-1 px-4 py-3 sm:flex-nowrap"
            data-testid={`service-${c.name}`}
          >
            <span
              className={
                `mt-1 inline-block h-2.5 w-2.5 ` +
                `rounded-full ${c.ok ? 'bg-emerald-500' : c.unknown ? 'bg-slate-400' : 'bg-rose-500'}`
              }
              aria-hidden
            />
            <div className="flex-1">
              <div className="font-medium">
                {c.name}{' '}
                <span className={c.ok ? 'text-emerald-700' : c.unknown ? 'text-slate-600' : 'text-rose-700'}>
                  {c.ok ? 'reachable' : c.unknown ? 'unknown' : 'unreachable'}
                </span>
              </div>
              <div className="text-sm text-slate-600">{c.detail}</div>
            </div>
            <div className="ml-6 text-xs tabular-nums text-slate-500 sm:ml-0 sm:text-right" data-testid="checked-at">
              <div>
                checked <LocalTime at={c.checkedAt} seconds />
              </div>
              <div>took {c.ms} ms</div>
            </div>
          </li>
        ))}
      </ul>
    </section>
  );
}
