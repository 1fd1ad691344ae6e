import 'server-only';
import { headers } from 'next/headers';
import { forbidden, redirect } from 'next/navigation';
import { NextResponse } from 'next/server';
import { isJsonContentType, isSameOrigin, resolveActor, type Actor } from '@gitbench/auth';
import { roleAtLeast, type Role } from '@gitbench/core';
import { webEnv } from '../env';
import { services } from '../services';
import { authServer } from './server';

export type { Actor };

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

const refuse = (status: number, error: string) => NextResponse.json({ error }, { status });

/**
 * The one check every route handler makes before it does anything: who calls (session cookie or
 * bearer token), whether their role allows it, and for a state-changing request whether it is JSON
 * and, with a cookie, from the app's own origin. Returns the caller, or the response to send.
 */
export async function requireRole(request: Request, role: Role): Promise<Actor | NextResponse> {
  const resolved = await resolveActor(authServer(), services().db, request.headers);
  if (!resolved.actor) {
    return resolved.reason === 'invalid_token'
      ? refuse(401, 'The API token is unknown, revoked or expired.')
      : refuse(401, 'Sign in first (or send an API token as Authorization: Bearer).');
  }
  const { actor } = resolved;
  if (!roleAtLeast(actor.role, role)) return refuse(403, `This needs the ${role} role; you are ${actor.role}.`);
  if (!SAFE_METHODS.has(request.method)) {
    if (actor.via === 'session' && !isSameOrigin(request.headers, request.url, webEnv().GITBENCH_PUBLIC_URL)) {
      return refuse(403, 'Cross-origin request refused: state-changing requests must come from this app’s own pages.');
    }
    if (!isJsonContentType(request.headers)) return refuse(415, 'Send the request as application/json.');
  }
  return actor;
}

/** The signed-in caller of the page being rendered, or null. */
export async function currentActor(): Promise<Actor | null> {
  return (await resolveActor(authServer(), services().db, await headers())).actor;
}

/** Path and query of the page being rendered, set by proxy.ts; where sign-in sends the user back to. */
export const REQUEST_PATH_HEADER = 'x-gitbench-path';

/** Sends an anonymous caller to sign in, and back to this page afterwards. */
export async function sendToSignIn(): Promise<never> {
  const from = (await headers()).get(REQUEST_PATH_HEADER);
  redirect(from && from !== '/' ? `/sign-in?next=${encodeURIComponent(from)}` : '/sign-in');
}

/**
 * The check every page makes first: anonymous callers are sent to sign in (and back here afterwards),
 * callers whose role is too low get 403.
 */
export async function requirePage(role: Role): Promise<Actor> {
  const actor = await currentActor();
  if (!actor) return sendToSignIn();
  if (!roleAtLeast(actor.role, role)) forbidden();
  return actor;
}

/** Whether anonymous visitors may read the public pages (GITBENCH_PUBLIC_LEADERBOARD=1). */
export const publicLeaderboard = (): boolean => webEnv().GITBENCH_PUBLIC_LEADERBOARD;

/**
 * The check of the pages a public leaderboard opens to anyone (the leaderboard, the methodology, a
 * published campaign's aggregates): the signed-in caller, or null for an anonymous visitor while
 * GITBENCH_PUBLIC_LEADERBOARD is on. Off, anonymous callers are sent to sign in as on every page. A
 * page that gets null shows what anyone may see and nothing else.
 */
export async function requirePublicPage(): Promise<Actor | null> {
  const actor = await currentActor();
  if (actor) return actor;
  if (publicLeaderboard()) return null;
  return sendToSignIn();
}
