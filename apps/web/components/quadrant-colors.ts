import type { Quadrant } from '@gitbench/core';

/**
 * One colour per quadrant for HTML (the chart's key, rendered on the server), as CSS variables that
 * follow dark mode (globals.css); the chart itself reads their values through useChartColors.
 */
export const QUADRANT_COLORS: Record<Quadrant, string> = {
  best_value: 'var(--chart-quadrant-best_value)',
  premium: 'var(--chart-quadrant-premium)',
  economy: 'var(--chart-quadrant-economy)',
  poor_value: 'var(--chart-quadrant-poor_value)',
};
