import type { createAuthMiddleware } from 'better-auth/api';

/** What a Better Auth before or after hook is given: the endpoint's path, body and auth context. */
export type AuthHookContext = Parameters<Parameters<typeof createAuthMiddleware>[0]>[0];

/** One step of the app's hooks; create-auth chains them into Better Auth's single before and after hook. */
export type AuthHook = (ctx: AuthHookContext) => Promise<void>;
