import { timeInUtc, timeInZone } from './time-in-zone';

/**
 * Tick labels for campaigns in creation order that tell every point apart: the date alone where no
 * other campaign shares it, the date and time (in the reader's zone) where several do, and a running
 * number where even the minute is shared. Campaigns of one day otherwise all read "2026-11-27".
 */
export function overTimeLabels(ats: readonly string[], timeZone: string | null): string[] {
  const full = ats.map((at) => (timeZone ? timeInZone(at, timeZone) : timeInUtc(at)));
  const date = full.map((f) => f.slice(0, 10));
  const clock = full.map((f) => f.slice(0, 16));
  const count = (xs: string[], x: string) => xs.filter((y) => y === x).length;
  const seen = new Map<string, number>();
  return ats.map((_, i) => {
    if (count(date, date[i]!) === 1) return date[i]!;
    if (count(clock, clock[i]!) === 1) return clock[i]!;
    const n = (seen.get(clock[i]!) ?? 0) + 1;
    seen.set(clock[i]!, n);
    return `${clock[i]} #${n}`;
  });
}
