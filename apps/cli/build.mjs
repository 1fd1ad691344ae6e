// Compiles the CLI to apps/cli/dist with esbuild: one ES module per lazily loaded command (code
// splitting keeps each command's dependencies out of the others' start-up), the workspace packages
// bundled from their TypeScript and the npm packages with them (Node resolving and scanning a few
// hundred CommonJS files was a third of a small command's start-up), but for those that read files
// beside their own code or load native code (KEEP_EXTERNAL). Run through tsx, a `gitbench campaign
// status` spent about a second compiling TypeScript before a 25 ms database read.
// Plain JavaScript: it must run where nothing compiles TypeScript yet.
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const CLI = path.dirname(fileURLToPath(import.meta.url));
const ROOT = path.resolve(CLI, '../..');
export const DIST = path.join(CLI, 'dist');
/** What was compiled from what, for the freshness check: paths relative to the repository and when the build began. */
export const MANIFEST = 'build-inputs.json';

/**
 * Bundled code runs from dist/, so a source file's own location (`import.meta.url`, the sandbox runner
 * beside its package, the repository's docker/ and .git) is written in as a path relative to dist/,
 * kept correct wherever the checkout is.
 */
function ownLocation(file, source) {
  const relative = path.relative(DIST, file).split(path.sep).join('/');
  const url = `new URL(${JSON.stringify(relative)}, import.meta.url).href`;
  const prelude =
    "import { fileURLToPath as __gitbenchPath } from 'node:url';\nimport " +
    "{ dirname as __gitbenchDirname } from 'node:path';\n";
  return (
    prelude +
    source
      .replaceAll('import.meta.url', url)
      .replaceAll('import.meta.dirname', `__gitbenchDirname(__gitbenchPath(${url}))`)
  );
}

/**
 * Left to Node: BullMQ reads its Lua scripts from its own directory (ioredis its version), dockerode's ssh2 and
 * pg-native load native code, Better Auth (only `user`) is large and loaded once, tsx and esbuild are tools.
 */
const KEEP_EXTERNAL = [
  'bullmq',
  'ioredis',
  'dockerode',
  'ssh2',
  'cpu-features',
  'pg-native',
  'better-auth',
  '@better-auth',
  'tsx',
  'esbuild',
];
/** Every bundled npm file changes only with an install, which rewrites npm's own record of the tree. */
const INSTALL_RECORD = 'node_modules/.package-lock.json';

/**
 * Right after `npm ci` the database client is not generated yet: the build leaves it out and records
 * that it was absent, so the commands that need no database work, those that do fail as they did from
 * source, and the build is made again once `prisma generate` wrote it.
 */
const GENERATED_CLIENT = path.join(ROOT, 'packages/db/src/generated/prisma/client.ts');
const absent = new Set();

const workspace = {
  name: 'gitbench-workspace',
  setup(build) {
    build.onResolve({ filter: /\/generated\/prisma\/client$/ }, (args) => {
      const file = `${path.resolve(args.resolveDir, args.path)}.ts`;
      if (file !== GENERATED_CLIENT || existsSync(file)) return undefined;
      absent.add(path.relative(ROOT, file));
      return { path: pathToFileURL(file).href, external: true };
    });
    const external = (name) => KEEP_EXTERNAL.some((p) => name === p || name.startsWith(`${p}/`));
    build.onResolve({ filter: /^[^./]/ }, (args) =>
      external(args.path) ? { path: args.path, external: true } : undefined,
    );
    build.onLoad({ filter: /[\\/]node_modules[\\/]pg[\\/]lib[\\/]stream\.js$/ }, (args) => ({
      contents: withoutCloudflareProbe(readFileSync(args.path, 'utf8')),
      loader: 'js',
    }));
    build.onLoad(
      { filter: /[\\/]node_modules[\\/]zod[\\/]v4[\\/](core[\\/]index|mini[\\/]external|classic[\\/]external)\.js$/ },
      (args) => ({
        contents: withoutZodLocales(readFileSync(args.path, 'utf8')),
        loader: 'js',
      }),
    );
    build.onLoad({ filter: /\.ts$/ }, (args) => {
      const source = readFileSync(args.path, 'utf8');
      const located = source.includes('import.meta.url') || source.includes('import.meta.dirname');
      return { contents: located ? ownLocation(args.path, source) : source, loader: 'ts' };
    });
  },
};

/**
 * pg asks at load whether it runs on Cloudflare Workers, and on a Node without `navigator` (Node 20) it
 * asks by constructing a fetch Response, which loads Node's whole fetch implementation (undici): about
 * a sixth of a `gitbench campaign status`'s CPU, for a command that never fetches. Under Node the
 * answer is no, so the probe answers that first; a pg whose probe reads otherwise is left as it is.
 */
export function withoutCloudflareProbe(source) {
  const probe = 'function isCloudflareRuntime() {';
  if (!source.includes(probe)) return source;
  return source.replace(
    probe,
    `${probe}\n  if (typeof process === 'object' && process.release && process.release.name === 'node') return false;`,
  );
}

/**
 * zod's entry modules re-export every locale (about 60 of them, 400 KB) as a `locales` namespace. With
 * code splitting that edge puts them in the chunk every command using zod loads, so the campaign
 * commands, which validate their environment with zod/mini, parsed them on each start (about a third
 * of that chunk's load). Nothing here selects a locale; classic zod registers English from its own
 * import of locales/en.js, which stays. A zod without that line is left as it is.
 */
export function withoutZodLocales(source) {
  return source.replace(/^export \* as locales from "\.\.\/locales\/index\.js";$/m, '');
}

/** Builds into a directory of its own and swaps it in, so a CLI starting meanwhile never sees half a build. */
export async function buildCli() {
  const { build } = await import('esbuild');
  const startedAt = Date.now();
  const out = `${DIST}.tmp-${process.pid}`;
  rmSync(out, { recursive: true, force: true });
  const result = await build({
    entryPoints: [path.join(CLI, 'src/main.ts')],
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    outdir: out,
    metafile: true,
    logLevel: 'warning',
    // Bundled CommonJS dependencies of ours (none today) would need require.
    banner: {
      js:
        'import { createRequire as __gitbenchRequire } from ' +
        "'node:module'; const require = __gitbenchRequire(import.meta.url);",
    },
    plugins: [workspace],
  });
  const files = Object.keys(result.metafile.inputs).map((f) =>
    path.relative(ROOT, path.resolve(f)).split(path.sep).join('/'),
  );
  const inputs = [...files.filter((f) => !f.includes('node_modules/')), INSTALL_RECORD];
  writeFileSync(path.join(out, MANIFEST), JSON.stringify({ builtAt: startedAt, inputs, absent: [...absent] }));
  writeFileSync(path.join(out, 'package.json'), '{"type":"module"}\n');
  const old = `${DIST}.old-${process.pid}`;
  try {
    renameSync(DIST, old);
  } catch {
    // no earlier build
  }
  try {
    renameSync(out, DIST);
  } catch {
    // Another process swapped its build in first: theirs is as good.
    rmSync(out, { recursive: true, force: true });
  }
  rmSync(old, { recursive: true, force: true });
  return { ms: Date.now() - startedAt, inputs: files.length };
}

/** Whether dist/ was built from the sources as they are now (none changed, added to the build or removed since). */
export function isFresh() {
  try {
    const manifest = JSON.parse(readFileSync(path.join(DIST, MANIFEST), 'utf8'));
    if (manifest.absent.some((f) => existsSync(path.join(ROOT, f)))) return false;
    return manifest.inputs.every((f) => statSync(path.join(ROOT, f)).mtimeMs < manifest.builtAt);
  } catch {
    return false;
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  mkdirSync(path.dirname(DIST), { recursive: true });
  const { ms, inputs } = await buildCli();
  process.stderr.write(
    `gitbench: compiled the CLI (${inputs} source files) ` +
      `into ${path.relative(process.cwd(), DIST) || DIST} in ${ms} ms\n`,
  );
}
