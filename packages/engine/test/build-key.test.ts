import { describe, expect, it } from 'vitest';
import { fixtureBuildKey, loadSuiteDir } from '../src';
import { UPSTREAM_FIXTURES } from '../../core/test/fixtures/upstream-data';

const docker = { driver: 'docker' as const, image: 'gitbench-sandbox:x', imageId: 'sha256:1', isolated: true };

describe('a fixture build key', () => {
  it('is the same for the same definition on the same image, with or without look-ups read ahead, and none without isolation', async () => {
    const suite = await loadSuiteDir(UPSTREAM_FIXTURES);
    const bisect = suite.fixtures.find((f) => f.scoring.type === 'bisect_regression')!;
    const exact = suite.fixtures.find((f) => f.scoring.type === 'exact_match')!;
    const key = fixtureBuildKey(bisect, docker);
    expect(key).toMatch(/^[0-9a-f]{64}$/);
    // Same definition, same key: builds are shared between campaigns by it.
    expect(fixtureBuildKey(structuredClone(bisect), docker)).toBe(key);
    // A state assertion more is a definition (and a probe) more: a new build, its look-ups read again.
    const sa = suite.fixtures.find((f) => f.scoring.type === 'state_assertions')!;
    const expected = sa.scoring.expected_state as { assertions: unknown[] };
    const more = { ...sa, scoring: { ...sa.scoring, expected_state: { assertions: [...expected.assertions, { type: 'file_exists', path: 'README.md' }] } } };
    expect(fixtureBuildKey(more, docker)).not.toBe(fixtureBuildKey(sa, docker));
    expect(fixtureBuildKey(exact, docker)).toMatch(/^[0-9a-f]{64}$/);
    expect(fixtureBuildKey(bisect, { ...docker, imageId: 'sha256:2' })).not.toBe(key);
    // No key where a build may differ with the host.
    expect(fixtureBuildKey(exact, { ...docker, driver: 'local', isolated: false })).toBeNull();
  });
});
