/** How a step card writes counts, durations and costs: an unknown value is a dash, never 0. */
export const count = (v: number | null) => (v === null ? '—' : v.toLocaleString('en-US'));
export const ms = (v: number) => (v < 1000 ? `${Math.round(v)} ms` : `${(v / 1000).toFixed(1)} s`);
export const usd = (v: number | null) => (v === null ? '—' : v < 0.01 ? `$${v.toPrecision(2)}` : `$${v.toFixed(3)}`);
