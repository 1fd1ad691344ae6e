/**
 * Import directions:
 * - core <- (db, queue, sandbox, providers, agents) <- engine (core, sandbox, providers, agents) <- apps;
 * - core <- providers <- gateway (the model gateway agents reach from the sandbox) <- engine and apps;
 * - core <- (db, queue, sandbox) <- use-cases <- apps, and auth (sign-in, roles, tokens: Better Auth on db) <- apps;
 * - core <- db <- test-support, imported by tests only.
 * The domain stays free of frameworks so every rule in it is testable in milliseconds;
 * adapters never reach into each other or into apps.
 */
const FRAMEWORKS = '^(next|react|react-dom|@prisma|prisma|bullmq|ioredis|dockerode|openai|pg|recharts)(/|$)';
const ADAPTERS = ['db', 'queue', 'sandbox', 'providers', 'agents'];

module.exports = {
  forbidden: [
    {
      name: 'core-is-pure',
      comment: 'packages/core is the pure domain: no framework, driver or adapter imports.',
      severity: 'error',
      from: { path: '^packages/core/' },
      to: {
        path: [
          `node_modules/${FRAMEWORKS.slice(1)}`,
          '^packages/(auth|db|queue|sandbox|providers|agents|gateway|engine)/',
          '^apps/',
        ],
      },
    },
    {
      name: 'core-no-framework-modules',
      comment: 'packages/core must not import framework packages (matched by module name).',
      severity: 'error',
      from: { path: '^packages/core/src/' },
      to: {
        dependencyTypes: ['npm', 'npm-dev', 'npm-optional', 'npm-peer', 'npm-no-pkg', 'npm-unknown'],
        pathNot: '^node_modules/(yaml|zod)/',
      },
    },
    {
      name: 'packages-never-import-apps',
      comment: 'Apps wire adapters together; a package importing an app inverts that.',
      severity: 'error',
      from: { path: '^packages/' },
      to: { path: '^apps/' },
    },
    ...ADAPTERS.map((name) => ({
      name: `adapter-${name}-independent`,
      comment: 'Adapters depend on core only; apps compose them.',
      severity: 'error',
      from: { path: `^packages/${name}/` },
      to: { path: `^packages/(${ADAPTERS.filter((a) => a !== name).join('|')})/` },
    })),
    {
      name: 'gateway-builds-on-core-and-providers',
      comment:
        'The model gateway answers through the providers package; it never runs attempts, stores or queues anything.',
      severity: 'error',
      from: { path: '^packages/gateway/' },
      to: { path: '^packages/(auth|db|queue|sandbox|agents|engine|use-cases)/' },
    },
    {
      name: 'adapters-never-import-gateway',
      comment: 'Only the engine and the apps start a gateway; the adapters below it never reach up.',
      severity: 'error',
      from: { path: '^packages/(db|queue|sandbox|providers|auth)/' },
      to: { path: '^packages/gateway/' },
    },
    {
      name: 'engine-composes-core-sandbox-providers',
      comment: 'The engine runs attempts; persistence and queueing belong to the apps that call it.',
      severity: 'error',
      from: { path: '^packages/engine/' },
      to: { path: '^packages/(db|queue)/' },
    },
    {
      name: 'auth-builds-on-db-only',
      comment: 'Sign-in and tokens live on the database; they never run attempts or queue jobs.',
      severity: 'error',
      from: { path: '^packages/auth/' },
      to: { path: '^packages/(queue|sandbox|providers|engine)/' },
    },
    {
      name: 'only-apps-import-auth',
      severity: 'error',
      from: { path: '^packages/(core|db|queue|sandbox|providers|gateway|engine)/' },
      to: { path: '^packages/auth/' },
    },
    {
      name: 'adapters-never-import-engine',
      severity: 'error',
      from: { path: '^packages/(core|db|queue|sandbox|providers|agents|gateway)/' },
      to: { path: '^packages/engine/' },
    },
    {
      name: 'use-cases-compose-adapters',
      comment:
        'A use case composes the domain with storage, the queue and ' +
        'sandbox labels; it runs attempts through an executor it is handed.',
      severity: 'error',
      from: { path: '^packages/use-cases/' },
      to: { path: ['^packages/(engine|providers|gateway|auth)/', '^apps/'] },
    },
    {
      name: 'only-apps-import-use-cases',
      severity: 'error',
      from: { path: '^packages/(core|db|queue|sandbox|providers|gateway|engine|auth)/' },
      to: { path: '^packages/use-cases/' },
    },
    {
      name: 'app-adapters-through-use-cases',
      comment:
        'Where a use case exists, its adapters (the worker job handlers; ' +
        'the web routes and CLI commands that create, estimate, ' +
        'cancel or retry a campaign) call it instead of reaching db, queue or sandbox, so each is written once. ' +
        'Allowed: type-only imports (a Db handed ' +
        'through carries no behaviour), and the composition roots that ' +
        'create and wire the clients: worker.ts, main.ts, env.ts, the ' +
        'engine executor (wires the engine to the sandbox driver and trajectory ' +
        'storage) and the reaper (recovery, its own use case to come).',
      severity: 'error',
      from: {
        path:
          '^apps/(worker/src/|web/app/api/campaigns/(route|estimate/route|\\[id\\]/(cancel|retry)/route)\\.ts$|' +
          'cli/src/commands/campaign-(create|cancel|retry)\\.ts$)',
        pathNot: '^apps/worker/src/(main|worker|env|engine-executor|reaper)\\.ts$',
      },
      to: { path: '^packages/(db|queue|sandbox)/', dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'test-support-only-in-tests',
      comment:
        'Test databases and seeded campaigns, trajectories and family ' +
        'outcomes are for tests (and the benchmarks and browser tests, ' +
        'outside these folders); production code never imports them, ' +
        'so none of it ships in the web app, the worker or the CLI.',
      severity: 'error',
      from: { path: '^(packages|apps)/', pathNot: ['^(packages|apps)/[^/]+/test/', '^packages/test-support/'] },
      to: { path: '^packages/test-support/' },
    },
    {
      name: 'test-support-builds-on-core-and-db',
      comment: 'Test support writes rows the way the product does, through db and core, and nothing else.',
      severity: 'error',
      from: { path: '^packages/test-support/' },
      to: { path: ['^packages/(auth|queue|sandbox|providers|agents|gateway|engine|use-cases)/', '^apps/'] },
    },
    {
      name: 'no-circular',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(\\.next|node_modules/\\.cache|/generated/|apps/cli/dist)' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.base.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      extensions: ['.ts', '.tsx', '.js', '.mjs', '.cjs', '.json'],
    },
  },
};
