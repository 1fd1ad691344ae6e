import type { CompareReport } from '@/lib/queries/compare';
import { SideLabel } from './compare-side';

/** Which side is which, over how many campaigns, and the exact McNemar test over the fixtures both ran. */
export function McNemarSummary({ report }: { report: CompareReport }) {
  const c = report.comparison;
  return (
    <div className="rounded-lg border border-slate-200 bg-white p-4 text-sm" data-testid="mcnemar">
      <p className="text-slate-600">
        A = <SideLabel side={report.a} />, B = <SideLabel side={report.b} />, over {report.included.length} included
        campaign(s).
      </p>
      {c.pairs.length === 0 ? (
        <p className="mt-2 font-medium text-amber-800">
          No fixture has valid attempts from both sides in the included campaigns, so there is nothing to test. Include
          legacy or incomplete campaigns, or choose targets that ran the same fixtures.
        </p>
      ) : (
        <McNemarResult comparison={c} />
      )}
    </div>
  );
}

/** The p-value in words, then the four cells of the table it was computed from and what was left out. */
function McNemarResult({ comparison: c }: { comparison: CompareReport['comparison'] }) {
  return (
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
        Of {c.pairs.length} fixtures both ran: A passed and B failed on {c.b}; A failed and B passed on {c.c}; both
        passed {c.bothPassed}; both failed {c.bothFailed}; {c.tiesLeftOut} left out because a side split evenly. Only A
        ran {c.onlyFirst}; only B ran {c.onlySecond}.
      </p>
    </>
  );
}
