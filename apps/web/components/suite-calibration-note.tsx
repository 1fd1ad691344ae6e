import { plural } from '@/components/format';
import type { SuiteCalibrationLine } from '@/lib/calibration';

/** The suite's calibration record in one line, apart from the campaigns' figures above it. */
export function SuiteCalibrationNote({ line }: { line: SuiteCalibrationLine }) {
  if (!line) return null;
  if (line.kind === 'unreadable')
    return (
      <p className="mt-1 max-w-3xl text-xs text-rose-700" data-testid="suite-calibration">
        Its calibration record cannot be read: {line.error}
      </p>
    );
  const trials =
    line.trialsRun > 0 ? `; ${line.trialsPassed} of ${plural(line.trialsRun, 'calibration trial')} passed` : '';
  return (
    <p className="mt-1 max-w-3xl text-xs text-slate-600" data-testid="suite-calibration">
      <span className="font-medium">Calibration record</span> (calibration.json, not a model&apos;s result, counted in
      no figure here): {line.measured} of {plural(line.listed, 'fixture')} calibrated{trials}.{' '}
      {line.methodLine ? <span className="text-slate-500">{line.methodLine}</span> : null} Each fixture&apos;s page
      shows its trials.
    </p>
  );
}
