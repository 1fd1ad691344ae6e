import { NextResponse } from 'next/server';
import { apiRoute } from '@/lib/auth/api-route';
import { audit } from '@/lib/auth/audit';
import { getSuiteItemAnalysis, itemAnalysisCsv } from '@/lib/queries/item-analysis';
import { services } from '@/lib/services';

export const dynamic = 'force-dynamic';

const CALIBRATION_METHOD =
  'GitBench item analysis: every campaign that ran the suite, every target in them but ' +
  'the built-in controls (oracle, mock, nop, simulated) unless controls lists them as ' +
  'included, and never the people (human:<name>, gitbench human), whose figures are the people_* ' +
  'columns beside; pass rate = passed over scored attempts (the settling try; excluded ' +
  'attempts left out); discrimination = point-biserial correlation with the rest score.';

/** A suite's item analysis, one row per fixture, as on its page. */
export const GET = apiRoute('member', async ({ request: req, actor }) => {
  const suite = req.nextUrl.searchParams.get('suite');
  const format = req.nextUrl.searchParams.get('format') ?? 'json';
  if (!suite) return NextResponse.json({ error: 'Name the suite: ?suite=<directory>.' }, { status: 400 });
  if (format !== 'csv' && format !== 'json')
    return NextResponse.json(
      { error: `Unknown export format '${format.slice(0, 40)}': use csv or json.` },
      { status: 400 },
    );
  const analysis = await getSuiteItemAnalysis(services().db, suite, {
    includeControls: req.nextUrl.searchParams.get('controls') === '1',
  });
  if (!analysis)
    return NextResponse.json({ error: `No campaign has run the suite '${suite.slice(0, 200)}'.` }, { status: 404 });
  await audit(actor, {
    action: 'items.export',
    target: { type: 'suite', id: suite },
    detail: { format, controls: analysis.controls.included },
  });
  const name = `gitbench-items-${suite.replace(/[^A-Za-z0-9_.-]+/g, '_')}-${new Date().toISOString().slice(0, 10)}`;
  if (format === 'csv') {
    return new NextResponse(itemAnalysisCsv(analysis), {
      headers: {
        'content-type': 'text/csv; charset=utf-8',
        'content-disposition': `attachment; filename="${name}.csv"`,
      },
    });
  }
  // The JSON is also a calibration record: saved as calibration.json at the suite's root, gitbench validate reads it.
  const record = { ...analysis, obtainedAt: new Date().toISOString(), method: CALIBRATION_METHOD };
  return NextResponse.json(record, { headers: { 'content-disposition': `attachment; filename="${name}.json"` } });
});
