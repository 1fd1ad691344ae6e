import type { NextConfig } from 'next';

const config: NextConfig = {
  // Workspace packages ship TypeScript source; Next compiles them with the app.
  transpilePackages: [
    '@gitbench/core',
    '@gitbench/auth',
    '@gitbench/db',
    '@gitbench/queue',
    '@gitbench/sandbox',
    '@gitbench/providers',
    '@gitbench/engine',
    '@gitbench/use-cases',
  ],
  // Native and driver packages stay as runtime requires instead of being bundled.
  serverExternalPackages: ['dockerode', 'ssh2', 'cpu-features', 'pg', 'bullmq', 'ioredis', '@prisma/adapter-pg'],
  typedRoutes: false,
  poweredByHeader: false,
  // forbidden(): a page refuses a role with a real 403 and app/forbidden.tsx.
  experimental: { authInterrupts: true },
};

export default config;
