import { AXIS_SCALES, LOG_SCALE_SPAN, type AxisScale } from '@gitbench/core';
import { LabelledSelect } from '@/components/labelled-select';
import { QUADRANT_METRICS, type QuadrantMetric } from '@/lib/queries/quadrant';

/** The x scale the URL asks for; anything else is auto. */
export function requestedScaleOf(v: unknown): AxisScale {
  return (AXIS_SCALES as readonly string[]).includes(String(v)) ? (v as AxisScale) : 'auto';
}

/** Which resource goes across, and on which scale: controls of the filters' own form. */
export function AxisControls({ metric, requestedScale }: { metric: QuadrantMetric; requestedScale: AxisScale }) {
  return (
    <>
      <LabelledSelect
        name="x"
        label="x axis"
        value={metric}
        options={Object.entries(QUADRANT_METRICS).map(([value, m]) => ({ value, label: m.label }))}
      />
      <LabelledSelect
        name="scale"
        label="x scale"
        value={requestedScale}
        options={[
          { value: 'auto', label: `Auto (log from a ${LOG_SCALE_SPAN}× spread)` },
          { value: 'linear', label: 'Linear' },
          { value: 'log', label: 'Log' },
        ]}
      />
    </>
  );
}
