import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';

// What the self-hosting stack promises (README, security section), read from the compose file itself.
const compose = readFileSync(path.resolve(import.meta.dirname, '../../docker/docker-compose.yml'), 'utf8');

interface Service {
  command?: string[];
  environment?: Record<string, string>;
  cap_drop?: string[];
  security_opt?: string[];
  read_only?: boolean;
  mem_limit?: string;
  tmpfs?: string[];
  ports?: string[];
}
/** The file as compose reads it, anchors and merge keys resolved. */
const services = (parse(compose, { merge: true }) as { services: Record<string, Service> }).services;
const APP = ['migrate', 'web', 'worker'];

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
    expect(services.redis!.command).toContain('--requirepass');
    expect(services.redis!.command![services.redis!.command!.indexOf('--requirepass') + 1]).toMatch(
      /^\$\{REDIS_PASSWORD:\?/,
    );
    for (const name of APP)
      expect(services[name]!.environment!.REDIS_URL, name).toBe('redis://:${REDIS_PASSWORD}@redis:6379');
  });

  it('has no default for any password', () => {
    expect(compose).not.toMatch(/(PASSWORD|SECRET_KEY):-/);
    expect(services.postgres!.environment!.POSTGRES_PASSWORD).toMatch(/^\$\{POSTGRES_PASSWORD:\?/);
    expect(services.web!.environment!.DATABASE_URL).toMatch(/\$\{GITBENCH_APP_DB_PASSWORD:\?/);
  });

  it(
    'migrates as the database owner and runs the app as a ' + "role of its own that never sees the owner's password",
    () => {
      expect(services.migrate!.environment).toMatchObject({
        DATABASE_URL: 'postgresql://gitbench:${POSTGRES_PASSWORD}@postgres:5432/gitbench',
        GITBENCH_APP_DB_USER: 'gitbench_app',
        GITBENCH_APP_DB_PASSWORD: '${GITBENCH_APP_DB_PASSWORD}',
      });
      expect(services.postgres!.environment!.POSTGRES_USER).toBe('gitbench');
      for (const name of ['web', 'worker']) {
        const env = services[name]!.environment!;
        expect(env.DATABASE_URL, name).toMatch(
          /^postgresql:\/\/gitbench_app:\$\{GITBENCH_APP_DB_PASSWORD:\?[^}]*\}@postgres:5432\/gitbench$/,
        );
        expect(JSON.stringify(env), name).not.toContain('POSTGRES_PASSWORD');
        expect(env.GITBENCH_APP_DB_USER, name).toBeUndefined();
      }
    },
  );

  it('hardens every app container: no capabilities, no new privileges, read-only, a memory limit', () => {
    for (const name of APP) {
      expect(services[name], name).toMatchObject({
        cap_drop: ['ALL'],
        security_opt: ['no-new-privileges:true'],
        read_only: true,
      });
      expect(services[name]!.mem_limit, name).toMatch(/^\$\{GITBENCH_APP_MEMORY:-\d+g\}$/);
    }
  });

  it('publishes only the web app, on loopback unless told otherwise, and tells the app where it is bound', () => {
    expect(
      Object.entries(services)
        .filter(([, s]) => s.ports)
        .map(([n]) => n),
    ).toEqual(['web']);
    expect(services.web!.ports).toEqual(['${GITBENCH_BIND:-127.0.0.1}:${GITBENCH_PORT:-3000}:3000']);
    expect(services.web!.environment!.GITBENCH_BIND).toBe('${GITBENCH_BIND:-127.0.0.1}');
  });
});

describe('the suites the stack serves', () => {
  it('are every suite of the repository: each directory under fixtures/ that holds a suite.yaml', () => {
    const root = path.resolve(import.meta.dirname, '../..');
    const nested = readdirSync(path.join(root, 'fixtures'), { withFileTypes: true })
      .filter((e) => e.isDirectory() && existsSync(path.join(root, 'fixtures', e.name, 'suite.yaml')))
      .map((e) => `fixtures/${e.name}`);
    const suites = ['fixtures', ...nested].sort();
    for (const name of APP) {
      const listed = (services[name]?.environment?.GITBENCH_SUITES ?? '').split(',');
      expect([...listed].sort(), name).toEqual(suites);
    }
  });
});
