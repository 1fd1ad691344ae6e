import { describe, expect, it } from 'vitest';
import { auditDetailLines } from '../lib/format/audit-detail';

describe('auditDetailLines', () => {
  it("reads an export's detail as key and value, an empty filter as none", () => {
    expect(auditDetailLines({ format: 'csv', filters: {} })).toEqual([
      { key: 'format', value: 'csv' },
      { key: 'filters', value: 'none' },
    ]);
  });

  it('flattens nested objects into dotted keys and lists arrays', () => {
    expect(
      auditDetailLines({ filters: { suite: 'fixtures', domains: ['rebase', 'merge'] }, rotated: true, attempts: 12 }),
    ).toEqual([
      { key: 'filters.suite', value: 'fixtures' },
      { key: 'filters.domains', value: 'rebase, merge' },
      { key: 'rotated', value: 'true' },
      { key: 'attempts', value: '12' },
    ]);
  });

  it('shows nothing for no detail, and a bare value under its own key', () => {
    expect(auditDetailLines(null)).toEqual([]);
    expect(auditDetailLines(undefined)).toEqual([]);
    expect(auditDetailLines('csv')).toEqual([{ key: 'detail', value: 'csv' }]);
    expect(auditDetailLines({ roles: [], by: null })).toEqual([
      { key: 'roles', value: 'none' },
      { key: 'by', value: '—' },
    ]);
  });
});
