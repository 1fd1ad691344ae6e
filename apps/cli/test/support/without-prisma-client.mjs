// Preloaded with `node --import`: the process behaves as right after `npm ci`, before `prisma generate`
// has written the database client, by refusing to load it (and the database package's entry point).
import { register } from 'node:module';

const hook = `
const FORBIDDEN = ['/packages/db/src/generated/', '/packages/db/src/index.ts'];
export async function resolve(specifier, context, next) {
  const resolved = await next(specifier, context);
  if (FORBIDDEN.some((part) => resolved.url.includes(part))) {
    throw new Error('the database client was loaded (' + resolved.url + '), which does not exist before prisma \
generate');
  }
  return resolved;
}`;
register(`data:text/javascript,${encodeURIComponent(hook)}`);
