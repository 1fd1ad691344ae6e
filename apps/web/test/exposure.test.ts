import { describe, expect, it } from 'vitest';
import { exposureProblem } from '../lib/exposure';

describe('exposing the app', () => {
  it('needs the public URL when bound beyond loopback, and not otherwise', () => {
    expect(exposureProblem({ GITBENCH_BIND: '0.0.0.0' })).toMatch(/set GITBENCH_PUBLIC_URL/);
    expect(exposureProblem({ GITBENCH_BIND: '10.0.0.5', GITBENCH_PUBLIC_URL: 'https://gitbench.example.com' })).toBeNull();
    for (const bind of [undefined, '', '127.0.0.1', 'localhost', '::1']) expect(exposureProblem({ GITBENCH_BIND: bind })).toBeNull();
  });
});
