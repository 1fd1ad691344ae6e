'use client';

import {
  CartesianGrid,
  ErrorBar,
  LabelList,
  ReferenceLine,
  ResponsiveContainer,
  Scatter,
  ScatterChart,
  Tooltip,
  XAxis,
  YAxis,
} from 'recharts';
import { QUADRANTS } from '@gitbench/core';
import { useChartColors } from './chart-colors';

export interface ChartPoint {
  x: number;
  y: number;
  label: string;
  /** Short mark drawn next to the point; the table under the chart names it (long names would overlap). */
  mark: string;
  quadrant: string;
  passes: number;
  valid: number;
  /** Distance from y to the interval's ends, as recharts' ErrorBar wants it. */
  err: [number, number];
}

export function QuadrantChart({
  points,
  medianX,
  medianY,
  xLabel,
  xScale,
  logAxis,
}: {
  points: ChartPoint[];
  medianX: number;
  medianY: number;
  /** What the x axis is, with its unit. */
  xLabel: string;
  xScale: 'linear' | 'log';
  /** Round ticks and the domain around them when the scale is log (core's logAxisTicks). */
  logAxis: { domain: [number, number]; ticks: number[] } | null;
}) {
  const xAxisLabel = xScale === 'log' ? `${xLabel}, log scale` : xLabel;
  const colors = useChartColors();
  const tick = colors ? { fontSize: 12, fill: colors.text } : { fontSize: 12 };
  return (
    <div
      className="h-[480px] w-full rounded-lg border border-slate-200 bg-white p-2"
      data-testid="quadrant-chart"
      data-x-scale={xScale}
      role="img"
      aria-label={`Scatter of mean one-attempt success (%) against ${xAxisLabel}; the table below lists every point`}
    >
      {colors ? (
        <ResponsiveContainer width="100%" height="100%">
          <ScatterChart margin={{ top: 24, right: 40, bottom: 40, left: 20 }}>
            <CartesianGrid strokeDasharray="3 3" stroke={colors.grid} />
            <XAxis
              type="number"
              dataKey="x"
              name={xLabel}
              scale={xScale}
              domain={logAxis ? logAxis.domain : [0, 'auto']}
              {...(logAxis ? { ticks: logAxis.ticks } : {})}
              allowDataOverflow={false}
              label={{ value: xAxisLabel, position: 'bottom', offset: 20, fill: colors.text }}
              stroke={colors.axis}
              tick={tick}
              tickFormatter={(v: number) => (v < 0.01 ? v.toPrecision(2) : String(Math.round(v * 1000) / 1000))}
            />
            <YAxis
              type="number"
              dataKey="y"
              domain={[0, 1]}
              tickFormatter={(v: number) => `${Math.round(v * 100)}%`}
              label={{
                value: 'Mean one-attempt success (%)',
                angle: -90,
                position: 'insideLeft',
                style: { textAnchor: 'middle' },
                fill: colors.text,
              }}
              stroke={colors.axis}
              tick={tick}
            />
            <ReferenceLine
              x={medianX}
              stroke={colors.reference}
              strokeDasharray="4 4"
              label={{ value: 'median', position: 'insideTopRight', fill: colors.text, fontSize: 11 }}
            />
            <ReferenceLine
              y={medianY}
              stroke={colors.reference}
              strokeDasharray="4 4"
              label={{ value: 'median', position: 'insideBottomLeft', fill: colors.text, fontSize: 11 }}
            />
            <Tooltip
              cursor={{ strokeDasharray: '3 3', stroke: colors.axis }}
              content={({ payload }) => {
                const p = payload?.[0]?.payload as ChartPoint | undefined;
                if (!p) return null;
                return (
                  <div className="rounded border border-slate-200 bg-white p-2 text-xs shadow">
                    <div className="font-medium">
                      {p.mark}. {p.label}
                    </div>
                    <div>
                      {Math.round(p.y * 1000) / 10}% ({p.passes}/{p.valid})
                    </div>
                    <div>
                      {xLabel}: {p.x}
                    </div>
                  </div>
                );
              }}
            />
            {QUADRANTS.map((q) => (
              <Scatter
                key={q}
                data={points.filter((p) => p.quadrant === q)}
                fill={colors.quadrant[q]}
                isAnimationActive={false}
              >
                <ErrorBar dataKey="err" direction="y" width={4} stroke={colors.quadrant[q]} />
                <LabelList
                  dataKey="mark"
                  position="right"
                  style={{ fontSize: 11, fontWeight: 600, fill: colors.text }}
                />
              </Scatter>
            ))}
          </ScatterChart>
        </ResponsiveContainer>
      ) : null}
    </div>
  );
}
