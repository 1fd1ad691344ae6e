import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

// What the self-hosting stack promises (README, security section), read from the compose file itself.
const compose = readFileSync(path.resolve(import.meta.dirname, '../../docker/docker-compose.yml'), 'utf8');

/** One service's block: from its name at two spaces' indent to the next service or top-level key. */
function service(name: string): string {
  const start = compose.indexOf(`\n  ${name}:\n`);
  expect(start, name).toBeGreaterThan(0);
  const rest = compose.slice(start + 1);
  const end = rest.slice(1).search(/\n( {2}[a-z]+:\n|[a-z]+:)/);
  return end < 0 ? rest : rest.slice(0, end + 1);
}

describe('the compose deployment', () => {
  it('gives Redis a required password and no protected-mode opt-out, and the app connects with it', () => {
    expect(service('redis')).not.toContain('protected-mode');
    expect(service('redis')).toMatch(/--requirepass", "\$\{REDIS_PASSWORD:\?/);
    expect(compose).toContain('REDIS_URL: redis://:${REDIS_PASSWORD}@redis:6379');
  });

  it('has no default database password', () => {
    expect(compose).not.toMatch(/POSTGRES_PASSWORD:-/);
    expect(service('postgres')).toMatch(/POSTGRES_PASSWORD: \$\{POSTGRES_PASSWORD:\?/);
  });

  it('hardens every app container: no capabilities, no new privileges, read-only, a memory limit', () => {
    const hardened = compose.slice(compose.indexOf('<<: &hardened'), compose.indexOf('environment: &appenv'));
    for (const line of ['cap_drop: [ALL]', 'no-new-privileges:true', 'read_only: true', 'mem_limit:']) expect(hardened, line).toContain(line);
    expect(service('migrate')).toContain('<<: &hardened');
    for (const name of ['web', 'worker']) expect(service(name), name).toContain('<<: *hardened');
  });
});
