import { APIError } from 'better-auth/api';
import type { AuthHook } from './auth-hook';

export const MIN_PASSWORD_LENGTH = 10;

/**
 * Passwords of ten characters or more that lists of leaked passwords open with. Short on purpose: the
 * shape rules below catch the rest of their kind (one character repeated, a keyboard or number run).
 */
const COMMON = new Set([
  'password12',
  'password123',
  'password1234',
  'passw0rd123',
  'qwertyuiop',
  'qwerty1234',
  'qwerty12345',
  '1q2w3e4r5t',
  '1qaz2wsx3edc',
  'iloveyou12',
  'iloveyou123',
  'letmein123',
  'welcome123',
  'admin12345',
  'administrator',
  'changeme123',
  'football12',
  'baseball12',
  'monkey1234',
  'dragon1234',
  'sunshine12',
  'princess12',
  'trustno1234',
  'zaq12wsxcde',
  'abc1234567',
  'abcdefghij',
  'asdfghjkl1',
  'gitbench123',
  'gitbench1234',
  'superman12',
  'starwars12',
  'whatever12',
  'computer12',
  'internet12',
  'p@ssw0rd123',
]);

const ROWS = ['0123456789', 'abcdefghijklmnopqrstuvwxyz', 'qwertyuiop', 'asdfghjkl', 'zxcvbnm'];

/** True when the whole password walks one row or sequence (forwards or backwards, wrapping), e.g. 1234567890. */
function isRun(p: string): boolean {
  return ROWS.some((row) => {
    const ring = row + row;
    const back = [...ring].reverse().join('');
    return p.length <= row.length + 1 && (ring.includes(p) || back.includes(p));
  });
}

/** Why a password is refused, or null when it is acceptable. */
export function passwordProblem(password: string): string | null {
  if (password.length < MIN_PASSWORD_LENGTH)
    return `The password is too short: use at least ${MIN_PASSWORD_LENGTH} characters.`;
  const lower = password.toLowerCase();
  if (new Set(lower).size < 4 || COMMON.has(lower) || isRun(lower)) {
    return (
      'The password is too easy to guess (a common password, ' +
      'a repeated character or a keyboard run): choose another.'
    );
  }
  return null;
}

/** Better Auth's own endpoints that set a password: the same rule as the app's. */
const SETS_PASSWORD: Record<string, 'password' | 'newPassword'> = {
  '/change-password': 'newPassword',
  '/reset-password': 'newPassword',
  '/sign-up/email': 'password',
};

export const passwordPolicyHook: AuthHook = async (ctx) => {
  const field = SETS_PASSWORD[ctx.path];
  if (!field) return;
  const value = (ctx.body as Record<string, unknown> | undefined)?.[field];
  const problem = typeof value === 'string' ? passwordProblem(value) : null;
  if (problem) throw new APIError('BAD_REQUEST', { message: problem });
};
