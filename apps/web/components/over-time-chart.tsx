'use client';

import { useEffect, useState } from 'react';
import { CartesianGrid, ErrorBar, Legend, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { overTimeLabels } from '@/lib/format/over-time-labels';
import { timeInUtc, timeInZone } from '@/lib/format/time-in-zone';
import { useChartColors } from './chart-colors';

export interface OverTimePoint {
  campaign: string;
  /** ISO timestamp of the campaign's creation. */
  at: string;
  outputMode: string;
  value: number | null;
  low: number | null;
  high: number | null;
  /** "passes/valid", for the tooltip. */
  fraction: string;
}

/**
 * Mean success per campaign in creation order, one line per output mode, each point with its Wilson
 * interval. The x axis is campaign order, not a time scale: campaigns days apart and minutes apart
 * read alike, and each tick names its date, with the time where campaigns share a date (the reader's
 * zone once the browser is known; UTC as the server renders it).
 */
export function OverTimeChart({ points }: { points: OverTimePoint[] }) {
  const [zone, setZone] = useState<string | null>(null);
  useEffect(() => setZone(Intl.DateTimeFormat().resolvedOptions().timeZone), []);
  const colors = useChartColors();
  const modes = [...new Set(points.map((p) => p.outputMode))].sort();
  const campaigns = [...new Map(points.map((p) => [`${p.at}|${p.campaign}`, p])).values()].sort((a, b) =>
    a.at.localeCompare(b.at),
  );
  if (campaigns.length < 2) return null;
  const labels = overTimeLabels(
    campaigns.map((c) => c.at),
    zone,
  );
  const data = campaigns.map((c, i) => {
    const row: Record<string, unknown> = {
      label: labels[i],
      campaign: c.campaign,
      at: zone ? timeInZone(c.at, zone) : timeInUtc(c.at),
    };
    for (const m of modes) {
      const p = points.find((x) => x.at === c.at && x.campaign === c.campaign && x.outputMode === m);
      if (!p || p.value === null) continue;
      row[m] = p.value;
      row[`${m}_err`] = [p.value - (p.low ?? p.value), (p.high ?? p.value) - p.value];
      row[`${m}_fraction`] = p.fraction;
    }
    return row;
  });
  return (
    <div
      className="h-72 w-full rounded-lg border border-slate-200 bg-white p-2"
      data-testid="over-time-chart"
      role="img"
      aria-label="Mean success per campaign over time, by output mode"
    >
      {colors ? (
        <ResponsiveContainer width="100%" height="100%">
          <LineChart data={data} margin={{ top: 10, right: 30, bottom: 10, left: 10 }}>
            <CartesianGrid strokeDasharray="3 3" stroke={colors.grid} />
            <XAxis
              dataKey="label"
              tick={{ fontSize: 11, fill: colors.text }}
              stroke={colors.axis}
              padding={{ left: 30, right: 30 }}
            />
            <YAxis
              domain={[0, 1]}
              tickFormatter={(v: number) => `${Math.round(v * 100)}%`}
              tick={{ fontSize: 11, fill: colors.text }}
              stroke={colors.axis}
            />
            <Tooltip
              cursor={{ stroke: colors.axis }}
              content={({ payload }) => {
                const row = payload?.[0]?.payload as Record<string, unknown> | undefined;
                if (!row) return null;
                return (
                  <div className="rounded border border-slate-200 bg-white p-2 text-xs shadow">
                    <div className="font-medium">{String(row.campaign)}</div>
                    <div className="text-slate-500">{String(row.at)}</div>
                    {modes.map((m) =>
                      row[m] === undefined ? null : (
                        <div key={m}>
                          {m}: {Math.round((row[m] as number) * 1000) / 10}% ({String(row[`${m}_fraction`])})
                        </div>
                      ),
                    )}
                  </div>
                );
              }}
            />
            <Legend wrapperStyle={{ color: colors.text }} />
            {modes.map((m) => (
              <Line
                key={m}
                type="linear"
                dataKey={m}
                name={m}
                stroke={colors.mode(m)}
                dot={{ r: 4, fill: colors.mode(m), stroke: colors.mode(m) }}
                connectNulls
                isAnimationActive={false}
              >
                <ErrorBar dataKey={`${m}_err`} width={4} stroke={colors.mode(m)} />
              </Line>
            ))}
          </LineChart>
        </ResponsiveContainer>
      ) : null}
    </div>
  );
}
