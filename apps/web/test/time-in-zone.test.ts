import { describe, expect, it } from 'vitest';
import { timeInUtc, timeInZone } from '../lib/format/time-in-zone';

describe('timeInZone', () => {
  const at = '2026-11-27T20:10:13.000Z';

  it("reads the moment on the reader's clock and names the zone", () => {
    expect(timeInZone(at, 'Europe/Berlin', { locale: 'en-GB' })).toBe('2026-11-27 21:10 CET');
    expect(timeInZone(at, 'America/New_York', { locale: 'en-US' })).toBe('2026-11-27 15:10 EST');
    expect(timeInZone(at, 'Asia/Kolkata', { locale: 'en-US', seconds: true })).toBe('2026-11-28 01:40:13 GMT+5:30');
  });

  it('follows summer time: the same zone, another offset and name', () => {
    expect(timeInZone('2026-07-01T12:00:00Z', 'Europe/Berlin', { locale: 'en-GB' })).toBe('2026-07-01 14:00 CEST');
  });

  it('keeps UTC as UTC, and the UTC text matches it', () => {
    expect(timeInZone(at, 'UTC')).toBe('2026-11-27 20:10 UTC');
    expect(timeInUtc(at)).toBe('2026-11-27 20:10 UTC');
    expect(timeInUtc(new Date(at), { seconds: true })).toBe('2026-11-27 20:10:13 UTC');
  });

  it('writes midnight as 00, never 24', () => {
    expect(timeInZone('2026-11-27T23:00:00Z', 'Europe/Berlin', { locale: 'en-GB' })).toBe('2026-11-28 00:00 CET');
  });
});
