import { describe, expect, it } from 'vitest';
import { isManualModel, ProviderRegistry } from '../src';

describe('the manual model', () => {
  it('is `manual` or `manual:<who>` with an optional effort, and nothing else', () => {
    expect(['manual', 'manual:ana', 'manual#high'].map(isManualModel)).toEqual([true, true, true]);
    expect(['manualx', 'acme/manual', 'manual:', 'replay:manual'].map(isManualModel)).toEqual([
      false,
      false,
      false,
      false,
    ]);
  });

  it(
    'resolves without a profile to the endpoint GITBENCH_MANUAL_URL ' + 'names, tried once, waiting for a person',
    async () => {
      const registry = new ProviderRegistry({ env: { GITBENCH_MANUAL_URL: 'http://127.0.0.1:3161/v1' } });
      expect(registry.describeModel('manual')).toEqual({
        ok: true,
        model: 'manual',
        profile: 'manual',
        provider: 'openai',
        builtin: false,
        simulated: false,
      });
      const target = await registry.resolve({ model: 'manual' });
      expect(target).toMatchObject({ model: 'manual', profile: 'manual', simulated: false });
      expect(target.provider.name).toBe('openai (profile manual)');
      expect(typeof target.provider.chat).toBe('function');
      const elsewhere = await new ProviderRegistry({ env: {} }).resolve({
        model: 'manual',
        baseUrl: 'http://10.0.0.2:9/v1',
      });
      expect(elsewhere.profile).toBe('manual');
    },
  );
});
