import { APIError } from 'better-auth/api';
import type { AuthHook } from './auth-hook';

export const MAX_NAME_LENGTH = 100;
const MAX_IMAGE_URL_LENGTH = 2048;

/** Why a display name is refused, or null. Every page shows names: a viewer stored one of 600 KB. */
export function nameProblem(name: unknown): string | null {
  if (typeof name !== 'string') return null;
  return name.length > MAX_NAME_LENGTH ? `Keep the name under ${MAX_NAME_LENGTH} characters.` : null;
}

/** Better Auth's endpoint where users change their own profile: the same caps as the app's forms. */
export const profileLimitsHook: AuthHook = async (ctx) => {
  if (ctx.path !== '/update-user') return;
  const body = (ctx.body ?? {}) as { name?: unknown; image?: unknown };
  const problem =
    nameProblem(body.name) ??
    (typeof body.image === 'string' && body.image.length > MAX_IMAGE_URL_LENGTH ? 'The image URL is too long.' : null);
  if (problem) throw new APIError('BAD_REQUEST', { message: problem });
};
