import Link from 'next/link';
import type { ItemAnalysis } from '@gitbench/core';
import { DataTable } from './data-table';
import { EmptyState } from './empty-state';
import { DASH, fixtureHref, fraction, pct } from './format';
import { getFixtureItemAnalysis, type SuiteItem, type SuiteItemAnalysis } from '@/lib/queries/item-analysis';
import { services } from '@/lib/services';
import { SuiteLink } from './suite-link';

export const DISCRIMINATION_TITLE =
  "Point-biserial correlation between a target's pass fraction on this fixture and its " +
  "mean pass fraction on the suite's other fixtures (its rest score), over the targets " +
  'that ran both. Near 1: strong targets pass it and weak ones fail. Near 0 or below: ' +
  'it carries no signal. Empty when undefined: fewer than two targets, or no variation.';

/** '1 target', '2 targets'. */
export const counted = (count: number, noun: string) => `${count} ${noun}${count === 1 ? '' : 's'}`;

/** Which built-in controls were left out (or counted), with the link that flips it. */
export function ControlsNote({ controls, href }: { controls: SuiteItemAnalysis['controls']; href: string }) {
  if (controls.models.length === 0) return null;
  const names = controls.models.join(', ');
  return (
    <p className="mt-1 max-w-3xl text-xs text-slate-500" data-testid="controls-note">
      {controls.included
        ? `Built-in controls counted as targets: ${names}. `
        : `Built-in controls left out: ${names}; they pass or fail by construction. `}
      <Link className="text-indigo-700 hover:underline" href={controls.included ? href : `${href}?controls=1`}>
        {controls.included ? 'Leave them out' : 'Count them'}
      </Link>
    </p>
  );
}

export function discrimination(i: Pick<ItemAnalysis, 'discrimination' | 'discriminationTargets'>): string {
  return i.discrimination === null ? DASH : i.discrimination.toFixed(2);
}

const FLAG_STYLES = {
  saturated: [
    'bg-amber-100 text-amber-900',
    'Every scored attempt of every target passed: it no longer separates targets.',
  ],
  unsolved: ['bg-rose-100 text-rose-900', 'No target passed it in any scored attempt.'],
  flaky: ['bg-sky-100 text-sky-900', 'At least one target both passed and failed it across its trials.'],
} as const;

export function ItemFlags({ flags }: { flags: ItemAnalysis['flags'] }) {
  const on = (Object.keys(FLAG_STYLES) as (keyof typeof FLAG_STYLES)[]).filter((f) => flags[f]);
  if (on.length === 0) return <span className="text-xs text-slate-500">{DASH}</span>;
  return (
    <span className="space-x-1">
      {on.map((f) => (
        <span
          key={f}
          title={FLAG_STYLES[f][1]}
          className={`inline-block rounded px-1.5 py-0.5 text-xs font-medium ${FLAG_STYLES[f][0]}`}
        >
          {f}
        </span>
      ))}
    </span>
  );
}

export function PassRate({ item }: { item: Pick<ItemAnalysis, 'passRate'> }) {
  return (
    <>
      {pct(item.passRate.value)} <span className="text-xs text-slate-500">{fraction(item.passRate)}</span>
    </>
  );
}

export function ItemTable({ items }: { items: readonly SuiteItem[] }) {
  return (
    <DataTable
      rows={items}
      rowKey={(i) => `${i.domain}/${i.fixtureId}`}
      testId="item-analysis"
      dense
      empty={
        <EmptyState title="No scored attempts in this suite yet">
          Fixtures appear once a campaign has scored them.
        </EmptyState>
      }
      columns={[
        {
          header: 'Fixture',
          cell: (i) => (
            <Link className="text-indigo-700 hover:underline" href={fixtureHref(i.domain, i.fixtureId)}>
              {i.domain}/{i.fixtureId}
            </Link>
          ),
        },
        {
          header: 'Difficulty',
          title: 'The label written in the fixture, as frozen in the newest campaign that ran it',
          cell: (i) => i.difficulty,
        },
        {
          header: 'Discrimination',
          title: DISCRIMINATION_TITLE,
          className: 'tabular-nums',
          cell: (i) => discrimination(i),
        },
        {
          header: 'Pass rate',
          title: 'Passed scored attempts over scored attempts, every target and trial',
          className: 'tabular-nums',
          cell: (i) => <PassRate item={i} />,
        },
        {
          header: 'Targets passing',
          title: 'Targets that passed it at least once, of the targets with a scored attempt',
          className: 'tabular-nums',
          cell: (i) => `${i.targetsPassing}/${i.targets}`,
        },
        { header: 'Flags', cell: (i) => <ItemFlags flags={i.flags} /> },
        {
          header: 'People passing',
          title:
            'Human baselines (gitbench human): people who passed it at least ' +
            'once, of those with a scored attempt. Shown beside the targets, ' +
            'never counted in the pass rate, the discrimination or the flags',
          className: 'tabular-nums',
          cell: (i) => (i.people.people === 0 ? DASH : `${i.people.passing}/${i.people.people}`),
        },
      ]}
    />
  );
}

/**
 * The fixture page's measured difficulty. Counting a suite's scored attempts reads every attempt of its
 * campaigns, so the page streams this part and shows everything else first.
 */
export async function FixtureItemAnalysis({
  domain,
  fixtureId,
  includeControls,
}: {
  domain: string;
  fixtureId: string;
  includeControls: boolean;
}) {
  const { rows: items, controlsOnly } = await getFixtureItemAnalysis(services().db, domain, fixtureId, {
    includeControls,
  });
  const controls = items.find((i) => i.controls.models.length > 0)?.controls ?? controlsOnly[0]?.controls;
  return (
    <>
      <p className="max-w-3xl text-xs text-slate-500">
        Over every target of every campaign that ran the suite, whatever campaign is chosen above; only scored attempts
        count. {DISCRIMINATION_TITLE}
      </p>
      {controls ? <ControlsNote controls={controls} href={fixtureHref(domain, fixtureId)} /> : null}
      <DataTable
        rows={items}
        rowKey={(r) => r.suite}
        testId="fixture-item-analysis"
        dense
        empty={
          controlsOnly.length > 0 ? (
            <EmptyState title="Only built-in controls have scored this fixture">
              {`In ${controlsOnly.map((c) => c.suite).join(', ')}, only the built-in controls have scored it, ` +
                'and they are left out (they pass or fail by construction). Its pass rate and discrimination appear ' +
                'once a model or agent has scored it, or when the controls are counted.'}
            </EmptyState>
          ) : (
            <EmptyState title="No scored attempt of this fixture yet">
              Its pass rate and discrimination appear once a campaign has scored it.
            </EmptyState>
          )
        }
        columns={[
          {
            header: 'Suite',
            cell: (r) => <SuiteLink suite={r.suite} />,
          },
          { header: 'Pass rate', className: 'tabular-nums', cell: (r) => <PassRate item={r.item} /> },
          {
            header: 'Discrimination',
            title: DISCRIMINATION_TITLE,
            className: 'tabular-nums',
            cell: (r) => `${discrimination(r.item)} (over ${counted(r.item.discriminationTargets, 'target')})`,
          },
          {
            header: 'Targets passing',
            className: 'tabular-nums',
            cell: (r) => `${r.item.targetsPassing}/${r.item.targets}`,
          },
          { header: 'Flags', cell: (r) => <ItemFlags flags={r.item.flags} /> },
        ]}
      />
    </>
  );
}
