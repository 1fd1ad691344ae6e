import type { Quadrant } from '@gitbench/core';

/** One colour per quadrant, shared by the chart (client) and its key (server). */
export const QUADRANT_COLORS: Record<Quadrant, string> = { best_value: '#059669', premium: '#4f46e5', economy: '#d97706', poor_value: '#e11d48' };
