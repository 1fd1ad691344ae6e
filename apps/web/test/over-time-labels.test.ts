import { describe, expect, it } from 'vitest';
import { overTimeLabels } from '../lib/format/over-time-labels';

describe('overTimeLabels', () => {
  it('keeps the date alone where no other campaign shares it', () => {
    expect(overTimeLabels(['2026-11-20T09:00:00Z', '2026-11-27T10:00:00Z'], 'UTC')).toEqual([
      '2026-11-20',
      '2026-11-27',
    ]);
  });

  it('adds the time where campaigns share a date, in the reader’s zone', () => {
    const ats = ['2026-11-20T09:00:00Z', '2026-11-27T10:05:00Z', '2026-11-27T20:10:00Z'];
    expect(overTimeLabels(ats, 'UTC')).toEqual(['2026-11-20', '2026-11-27 10:05', '2026-11-27 20:10']);
    // In Kolkata (UTC+5:30) 20:10 UTC is already the next day: each date is alone again.
    expect(overTimeLabels(ats, 'Asia/Kolkata')).toEqual(['2026-11-20', '2026-11-27', '2026-11-28']);
  });

  it('numbers campaigns created in the same minute, so that no two labels are equal', () => {
    const labels = overTimeLabels(['2026-11-27T10:05:01Z', '2026-11-27T10:05:40Z', '2026-11-27T11:00:00Z'], null);
    expect(labels).toEqual(['2026-11-27 10:05 #1', '2026-11-27 10:05 #2', '2026-11-27 11:00']);
    expect(new Set(labels).size).toBe(labels.length);
  });
});
