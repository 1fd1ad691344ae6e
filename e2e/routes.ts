import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

/** Every route handler and page of the web app, found on disk, so a new one cannot be missed. */
export const APP = path.resolve(import.meta.dirname, '../apps/web/app');
export const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;

function walk(dir: string, file: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? walk(path.join(dir, e.name), file) : e.name === file ? [path.join(dir, e.name)] : [],
  );
}

/** The URL pattern of a file under app/: route groups dropped. */
export const patternOf = (file: string) =>
  `/${path
    .relative(APP, path.dirname(file))
    .split(path.sep)
    .filter((s) => s && !/^\(.*\)$/.test(s))
    .join('/')}`;

/** A concrete URL for a pattern: ids that look right but do not exist. */
export const urlOf = (pattern: string, id = 'cmp_doesnotexist') =>
  pattern.replace(/\[\.\.\.[^\]]+\]/g, 'x').replace(/\[(\w+)\]/g, (_, name: string) => (name === 'id' ? id : 'x'));

export const routes = walk(path.join(APP, 'api'), 'route.ts').map((file) => {
  const source = readFileSync(file, 'utf8');
  const methods = METHODS.filter((m) => new RegExp(`export (const|async function|function) ${m}\\b`).test(source));
  return { pattern: patternOf(file), methods };
});
export const pages = walk(APP, 'page.tsx').map(patternOf);
