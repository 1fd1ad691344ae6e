import { DataTable, type Column } from '@/components/data-table';
import { Section } from '@/components/empty-state';
import { DASH } from '@/components/format';
import { RateCell } from '@/components/rate-cell';
import { modeWithAgent } from '@/components/target-name';
import type { ModelReport, SliceCell } from '@/lib/queries/model';

/** Mean success in one slice, and how many of its fixture series came out flaky. */
function SliceFigure({ cell }: { cell: SliceCell }) {
  return (
    <>
      <RateCell rate={cell.rate} />
      {cell.classified > 0 ? (
        <div
          className={`text-xs ${cell.flaky > 0 ? 'text-amber-700' : 'text-slate-500'}`}
          title="Flaky fixture series of all series in this slice"
        >
          {cell.flaky}/{cell.classified} flaky
        </div>
      ) : null}
    </>
  );
}

/** The model's results sliced by one property (domain, difficulty): a row per value, a column per mode. */
function SliceTable({ title, cells, testId }: { title: string; cells: SliceCell[]; testId: string }) {
  const keys = [...new Set(cells.map((c) => c.key))];
  // One column per output mode, and in agent mode per agent: two agents on this model stay apart.
  const label = (c: SliceCell) => modeWithAgent(c.outputMode, c.agent);
  const modes = [...new Set(cells.map(label))].sort();
  return (
    <DataTable
      rows={keys}
      rowKey={(k) => k}
      testId={testId}
      columns={[
        { header: title, className: 'font-medium', sort: (k) => k, cell: (k) => k },
        ...modes.map((m): Column<string> => ({
          header: m,
          sort: (k) => cells.find((x) => x.key === k && label(x) === m)?.rate.value ?? null,
          cell: (k) => {
            const c = cells.find((x) => x.key === k && label(x) === m);
            if (!c) return <span title="No attempt in this slice">{DASH}</span>;
            return <SliceFigure cell={c} />;
          },
        })),
      ]}
    />
  );
}

/** By domain and by difficulty side by side, when the model has results to slice. */
export function ModelSlices({ report }: { report: Pick<ModelReport, 'byDomain' | 'byDifficulty'> }) {
  if (report.byDomain.length === 0) return null;
  return (
    <div className="grid gap-6 lg:grid-cols-2">
      <Section title="By domain" id="by-domain">
        <SliceTable title="Domain" cells={report.byDomain} testId="model-by-domain" />
      </Section>
      <Section title="By difficulty" id="by-difficulty">
        <SliceTable title="Difficulty" cells={report.byDifficulty} testId="model-by-difficulty" />
      </Section>
    </div>
  );
}
