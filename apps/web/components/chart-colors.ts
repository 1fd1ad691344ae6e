'use client';

import { useEffect, useState } from 'react';
import { QUADRANTS, type Quadrant } from '@gitbench/core';

/** The colours a chart draws with, as globals.css sets them for the scheme the reader's system uses. */
export interface ChartColors {
  grid: string;
  axis: string;
  text: string;
  reference: string;
  /** A series by output mode (text, json_schema, agent); `other` for any else. */
  mode: (outputMode: string) => string;
  quadrant: Record<Quadrant, string>;
}

function read(): ChartColors {
  const style = getComputedStyle(document.documentElement);
  const v = (name: string) => style.getPropertyValue(`--chart-${name}`).trim();
  const other = v('other');
  return {
    grid: v('grid'),
    axis: v('axis'),
    text: v('text'),
    reference: v('reference'),
    mode: (m) => v(`mode-${m}`) || other,
    quadrant: Object.fromEntries(QUADRANTS.map((q) => [q, v(`quadrant-${q}`)])) as Record<Quadrant, string>,
  };
}

/**
 * The chart colours, read once the chart is in the browser and again when the system switches between
 * light and dark; null until then (a chart measures its box in the browser before drawing anyway).
 */
export function useChartColors(): ChartColors | null {
  const [colors, setColors] = useState<ChartColors | null>(null);
  useEffect(() => {
    const scheme = window.matchMedia('(prefers-color-scheme: dark)');
    const update = () => setColors(read());
    update();
    scheme.addEventListener('change', update);
    return () => scheme.removeEventListener('change', update);
  }, []);
  return colors;
}
