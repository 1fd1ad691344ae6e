import Link from 'next/link';
import type { ComponentProps } from 'react';
import { AGENT_NAME, isMode, isSimulatedModelId } from '@gitbench/core';
import { DataTable } from '@/components/data-table';
import { EmptyState, Section } from '@/components/empty-state';
import { DASH, fixtureHref } from '@/components/format';
import { ModelLabel, modeWithAgent } from '@/components/target-name';
import { RateCell } from '@/components/rate-cell';
import { compareModels, type CompareSide } from '@/lib/queries/compare';
import { parseFilters } from '@/lib/queries/filters';
import { listModels } from '@/lib/queries/model';
import { services } from '@/lib/services';
import { requirePage } from '@/lib/auth/guard';

export const dynamic = 'force-dynamic';

/** A side as the picker spells it: `model|mode`, or `model|agent|<agent>` for a third-party agent. */
/** A compared side named as every page names a target. */
function SideLabel({ side }: { side: Pick<ComponentProps<typeof ModelLabel>, 'modelId' | 'outputMode' | 'agent'> }) {
  return <ModelLabel modelId={side.modelId} outputMode={side.outputMode} agent={side.agent} />;
}

function sideValue(t: { modelId: string; outputMode: string; agent: string | null }): string {
  return t.agent ? `${t.modelId}|${t.outputMode}|${t.agent}` : `${t.modelId}|${t.outputMode}`;
}

function parseSide(v: unknown): CompareSide | null {
  if (typeof v !== 'string') return null;
  const parts = v.split('|');
  const agent = parts.length >= 3 && parts.at(-2) === 'agent' && AGENT_NAME.test(parts.at(-1)!) ? parts.pop()! : null;
  const mode = parts.pop();
  // Every mode, agent included, and in agent mode the third-party agent if one is named.
  if (parts.length === 0 || mode === undefined || !isMode(mode)) return null;
  return { modelId: parts.join('|'), outputMode: mode, agent };
}

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
  const picker = (name: 'a' | 'b', label: string) => (
    <label className="flex flex-col gap-1 text-xs font-medium text-slate-600">
      {label}
      <select
        name={name}
        defaultValue={typeof sp[name] === 'string' ? (sp[name] as string) : ''}
        className="max-w-sm rounded border border-slate-300 bg-white px-2 py-1.5 text-sm text-slate-900"
        required
      >
        <option value="">Choose a target…</option>
        {targets.map((t) => (
          <option key={sideValue(t)} value={sideValue(t)}>
            {t.modelId} · {modeWithAgent(t.outputMode, t.agent)}
            {isSimulatedModelId(t.modelId) ? ' (simulated)' : ''}
          </option>
        ))}
      </select>
    </label>
  );
  const c = report?.comparison;
  const tally = (p: { domain: string; fixtureId: string }, side: 'a' | 'b') => {
    const t = report?.tallies[`${p.domain}/${p.fixtureId}`]?.[side];
    return `${t?.pass ?? 0} passed / ${t?.fail ?? 0} failed`;
  };
  return (
    <div className="space-y-6">
      <div>
        <h1 className="text-2xl font-semibold">Compare two targets</h1>
        <p className="mt-1 max-w-3xl text-sm text-slate-600">
          Differences per domain, and an exact McNemar test on the fixtures both ran: one pair per fixture, each
          side&apos;s outcome the majority of its valid attempts there.
        </p>
      </div>
      <form
        method="get"
        className="flex flex-wrap items-end gap-3 rounded-lg border border-slate-200 bg-white p-3"
        aria-label="Targets to compare"
      >
        {picker('a', 'First (A)')}
        {picker('b', 'Second (B)')}
        <fieldset className="flex flex-col gap-1 text-sm">
          <legend className="sr-only">Campaigns left out by default</legend>
          <label className="flex items-center gap-2">
            <input
              type="checkbox"
              name="legacy"
              value="1"
              defaultChecked={filters.legacy === '1'}
              className="h-4 w-4"
            />{' '}
            Include legacy
          </label>
          <label className="flex items-center gap-2">
            <input
              type="checkbox"
              name="incomplete"
              value="1"
              defaultChecked={filters.incomplete === '1'}
              className="h-4 w-4"
            />{' '}
            Include incomplete
          </label>
        </fieldset>
        <button
          type="submit"
          className="rounded bg-indigo-600 px-3 py-1.5 text-sm font-medium text-white hover:bg-indigo-700"
        >
          Compare
        </button>
      </form>
      {!report || !c ? (
        <EmptyState title="Choose two targets">
          Pick a model and output mode for each side, then press Compare.
        </EmptyState>
      ) : (
        <>
          <div className="rounded-lg border border-slate-200 bg-white p-4 text-sm" data-testid="mcnemar">
            <p className="text-slate-600">
              A = <SideLabel side={report.a} />, B = <SideLabel side={report.b} />, over {report.included.length}{' '}
              included campaign(s).
            </p>
            {c.pairs.length === 0 ? (
              <p className="mt-2 font-medium text-amber-800">
                No fixture has valid attempts from both sides in the included campaigns, so there is nothing to test.
                Include legacy or incomplete campaigns, or choose targets that ran the same fixtures.
              </p>
            ) : (
              <>
                <p className="mt-2 font-medium">
                  Exact McNemar test: p = {c.pValue < 0.0001 ? c.pValue.toExponential(2) : c.pValue.toFixed(4)}{' '}
                  <span className="font-normal text-slate-600">
                    (
                    {c.pValue < 0.05
                      ? 'the imbalance is unlikely to be chance at the 5% level'
                      : 'no evidence of a difference at the 5% level'}
                    )
                  </span>
                </p>
                <p className="mt-1 text-slate-700">
                  Of {c.pairs.length} fixtures both ran: A passed and B failed on {c.b}; A failed and B passed on {c.c};
                  both passed {c.bothPassed}; both failed {c.bothFailed}; {c.tiesLeftOut} left out because a side split
                  evenly. Only A ran {c.onlyFirst}; only B ran {c.onlySecond}.
                </p>
              </>
            )}
          </div>
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
                  cell: (d) => (
                    <span
                      className={
                        d.diff === null ? '' : d.diff > 0 ? 'text-emerald-700' : d.diff < 0 ? 'text-rose-700' : ''
                      }
                    >
                      {d.diff === null ? DASH : `${d.diff > 0 ? '+' : ''}${(d.diff * 100).toFixed(1)} pts`}
                    </span>
                  ),
                },
              ]}
            />
          </Section>
          <Section title="Per fixture (discordant first)" id="per-fixture">
            <DataTable
              rows={[...c.pairs].sort((x, y) => Number(x.first === x.second) - Number(y.first === y.second))}
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
        </>
      )}
    </div>
  );
}
