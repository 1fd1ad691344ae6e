import type { Rate } from '@gitbench/core';

/** Formatting shared by every page: unknown is "—", never 0. */
export const DASH = '—';

export function pct(value: number | null | undefined, digits = 1): string {
  return value === null || value === undefined ? DASH : `${(value * 100).toFixed(digits)}%`;
}

export function fraction(r: Pick<Rate, 'numerator' | 'denominator'>): string {
  return `${r.numerator}/${r.denominator}`;
}

export function usd(value: number | null | undefined): string {
  if (value === null || value === undefined) return DASH;
  if (value === 0) return '$0';
  if (Math.abs(value) < 0.01) return `$${value.toPrecision(2)}`;
  return `$${value.toFixed(value < 10 ? 3 : 2)}`;
}

export function int(value: number | null | undefined): string {
  return value === null || value === undefined ? DASH : Math.round(value).toLocaleString('en-US');
}

export function duration(ms: number | null | undefined): string {
  if (ms === null || ms === undefined) return DASH;
  if (ms < 1000) return `${Math.round(ms)} ms`;
  const s = ms / 1000;
  if (s < 90) return `${s.toFixed(1)} s`;
  const m = Math.floor(s / 60);
  if (m < 90) return `${m} min ${Math.round(s % 60)} s`;
  return `${Math.floor(m / 60)} h ${m % 60} min`;
}

export function date(d: Date | string | null | undefined): string {
  if (!d) return DASH;
  return new Date(d).toISOString().replace('T', ' ').slice(0, 16) + ' UTC';
}

/** `filters` keeps the reader's selection (legacy/incomplete toggles, domain, ...) on the model page. */
export function modelHref(modelId: string, filters: Record<string, string | undefined> = {}): string {
  const q = new URLSearchParams({ id: modelId });
  for (const [k, v] of Object.entries(filters)) if (v && k !== 'id') q.set(k, v);
  return `/models?${q.toString()}`;
}

export function fixtureHref(domain: string, fixtureId: string, campaignId?: string): string {
  const query = campaignId ? `?campaign=${encodeURIComponent(campaignId)}` : '';
  return `/fixtures/${encodeURIComponent(domain)}/${encodeURIComponent(fixtureId)}${query}`;
}

/** The GitBench that produced a result: its commit (or baked version), and whether its tree was modified. */
export function productVersion(version: string | null, dirty: boolean | null): string {
  if (version === null) return 'not recorded';
  return `${version}${dirty === true ? ' (with uncommitted changes)' : dirty === null ? ' (tree state unknown)' : ''}`;
}

/** A rough time for estimates ("about 4 min"): the precision an estimate has. */
export function aboutDuration(seconds: number | null): string {
  if (seconds === null) return 'estimating…';
  if (seconds < 60) return `about ${Math.max(1, Math.round(seconds))} s`;
  const m = Math.round(seconds / 60);
  return m < 90 ? `about ${m} min` : `about ${Math.floor(m / 60)} h ${m % 60} min`;
}

/** A count with its noun: "1 trial", "3 trials", "2 modalities". */
export const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;
