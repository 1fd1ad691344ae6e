import { describe, expect, it } from 'vitest';
import { exposureProblem } from '../lib/exposure';

describe('exposing the app', () => {
  it('needs the public URL when bound beyond loopback, and not otherwise', () => {
    expect(exposureProblem({ GITBENCH_BIND: '0.0.0.0' })).toMatch(/set GITBENCH_PUBLIC_URL/);
    expect(
      exposureProblem({ GITBENCH_BIND: '10.0.0.5', GITBENCH_PUBLIC_URL: 'https://gitbench.example.com' }),
    ).toBeNull();
    for (const bind of [undefined, '', '127.0.0.1', 'localhost', '::1'])
      expect(exposureProblem({ GITBENCH_BIND: bind })).toBeNull();
  });

  it('refuses a default database or Redis password when exposed, and only then', () => {
    const exposed = { GITBENCH_BIND: '0.0.0.0', GITBENCH_PUBLIC_URL: 'https://gitbench.example.com' };
    const strong = {
      DATABASE_URL: 'postgresql://gitbench_app:3f9c0a1e7b2d4c58@postgres:5432/gitbench',
      REDIS_URL: 'redis://:9b1d5e3a7c2f4e60@redis:6379',
    };
    expect(exposureProblem({ ...exposed, ...strong })).toBeNull();
    for (const db of [
      'postgresql://gitbench:gitbench@postgres:5432/gitbench',
      'postgresql://postgres:postgres@db/gitbench',
      'postgresql://gitbench_app:gitbench_app@db/gitbench',
      'postgresql://u:Password@db/g',
    ])
      expect(exposureProblem({ ...exposed, ...strong, DATABASE_URL: db }), db).toMatch(
        /DATABASE_URL has a default password/,
      );
    expect(exposureProblem({ ...exposed, ...strong, REDIS_URL: 'redis://:redis@redis:6379' })).toMatch(
      /REDIS_URL has a default password/,
    );
    // On this machine only, a local database with its default password is the developer's business.
    expect(
      exposureProblem({
        GITBENCH_BIND: '127.0.0.1',
        DATABASE_URL: 'postgresql://gitbench:gitbench@127.0.0.1/gitbench',
      }),
    ).toBeNull();
    // No password at all (local trust) is not a default one.
    expect(
      exposureProblem({
        ...exposed,
        DATABASE_URL: 'postgresql://postgres@127.0.0.1:5432/gitbench',
        REDIS_URL: 'redis://127.0.0.1:6379',
      }),
    ).toBeNull();
  });
});
