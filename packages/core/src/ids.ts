import { randomBytes } from 'node:crypto';

/**
 * Row ids carry a prefix naming what they identify (att_ for an Attempt, cmp_ for a Campaign), so a
 * job id, a log line or a URL says what it points at. No ':' — BullMQ reserves it in job ids.
 */
export const ID_PREFIXES = {
  campaign: 'cmp',
  target: 'tgt',
  fixtureSnapshot: 'fxs',
  attempt: 'att',
  attemptTry: 'try',
  judgeResult: 'jdg',
  worker: 'wrk',
  ping: 'png',
  user: 'usr',
  session: 'ses',
  account: 'acc',
  verification: 'vrf',
  apiToken: 'tok',
  auditEvent: 'aud',
  trajectory: 'trj',
  providerKey: 'pky',
  rateLimit: 'rlm',
} as const;

export type IdKind = keyof typeof ID_PREFIXES;

export function newId(kind: IdKind): string {
  // 16 random bytes in base32-ish lowercase: URL-safe, sortable enough for humans to read.
  return `${ID_PREFIXES[kind]}_${randomBytes(12).toString('base64url').replace(/[-_]/g, 'x')}`;
}

export function idKind(id: string): IdKind | undefined {
  const prefix = id.split('_', 1)[0];
  return (Object.keys(ID_PREFIXES) as IdKind[]).find((k) => ID_PREFIXES[k] === prefix);
}
