import { describe, expect, it } from 'vitest';
import { parseCampaignConfig } from '../../src/campaign';

const base = { name: 'Nightly', createdBy: 'ana', models: ['oracle'] };

describe('a hostile campaign body is a list of field errors, never an exception', () => {
  for (const key of ['__proto__', 'constructor', 'toString', 'hasOwnProperty']) {
    it(`a top-level key '${key}' is an unknown field`, () => {
      const body = JSON.parse(`{"name":"n","createdBy":"a","models":["oracle"],"${key}":{"polluted":true}}`);
      const result = parseCampaignConfig(body);
      expect(result.success).toBe(false);
      if (result.success) return;
      expect(Object.getOwnPropertyDescriptor(result.error.fieldErrors, key)?.value).toEqual([
        `Unknown field '${key}'.`,
      ]);
      expect(JSON.parse(JSON.stringify(result.error))).toEqual({
        formErrors: [],
        fieldErrors: { [key]: [`Unknown field '${key}'.`] },
      });
      expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    });
  }

  it('a NUL byte in a name is refused with the field named', () => {
    const result = parseCampaignConfig({ ...base, name: 'bad\u0000name' });
    expect(result).toEqual({
      success: false,
      error: { formErrors: [], fieldErrors: { name: ['Contains a NUL character.'] } },
    });
  });

  it('a lone surrogate, anywhere in the body, is refused with its path', () => {
    expect(parseCampaignConfig({ ...base, name: 'x\uD800y' })).toEqual({
      success: false,
      error: { formErrors: [], fieldErrors: { name: ['Contains an unpaired surrogate (not valid Unicode).'] } },
    });
    expect(parseCampaignConfig({ ...base, fixtures: { tags: ['ok', '\uDC00'] } })).toEqual({
      success: false,
      error: {
        formErrors: [],
        fieldErrors: { 'fixtures.tags.1': ['Contains an unpaired surrogate (not valid Unicode).'] },
      },
    });
    // A well-formed pair is fine.
    expect(parseCampaignConfig({ ...base, name: 'rocket \uD83D\uDE80' }).success).toBe(true);
  });

  it('a NUL in a key is reported without the NUL', () => {
    const result = parseCampaignConfig({ ...base, 'a\u0000b': 1 });
    expect(result.success).toBe(false);
    if (!result.success) expect(Object.keys(result.error.fieldErrors)).toEqual(['a\uFFFDb']);
  });

  it('100,000 nested arrays are refused as too deep, not a stack overflow', () => {
    const deep = JSON.parse(`${'['.repeat(100_000)}${']'.repeat(100_000)}`);
    const result = parseCampaignConfig({ ...base, models: deep });
    expect(result.success).toBe(false);
    if (!result.success)
      expect(Object.values(result.error.fieldErrors).flat()).toEqual(['Nested more than 32 levels deep.']);
    expect(parseCampaignConfig(deep).success).toBe(false);
  });
});
