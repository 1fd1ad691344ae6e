import { newId, type AuditAction, type AuditVia } from '@gitbench/core';
import type { Db } from '../client';
import type { Prisma } from '../generated/prisma/client';

export interface AuditActor {
  userId: string | null;
  email: string;
  via: AuditVia;
}

export interface AuditEntry {
  action: AuditAction;
  target: { type: string; id?: string | null };
  /** What else matters to a reader (a format, a new role); never a secret. */
  detail?: Record<string, unknown>;
}

export async function recordAudit(db: Db, actor: AuditActor, entry: AuditEntry): Promise<void> {
  await db.auditEvent.create({
    data: {
      id: newId('auditEvent'),
      actorId: actor.userId,
      actorEmail: actor.email,
      via: actor.via,
      action: entry.action,
      targetType: entry.target.type,
      targetId: entry.target.id ?? null,
      ...(entry.detail ? { detail: entry.detail as Prisma.InputJsonValue } : {}),
    },
  });
}

/** What the audit log can be narrowed to; every field is an exact match. */
export interface AuditFilter {
  action?: string;
  actorEmail?: string;
  targetType?: string;
  via?: string;
}

function auditWhere(filter: AuditFilter): Prisma.AuditEventWhereInput {
  return {
    ...(filter.action ? { action: filter.action } : {}),
    ...(filter.actorEmail ? { actorEmail: filter.actorEmail } : {}),
    ...(filter.targetType ? { targetType: filter.targetType } : {}),
    ...(filter.via ? { via: filter.via } : {}),
  };
}

/** Newest first; `before` is the id of the last row of the previous page. */
export async function listAuditEvents(db: Db, opts: AuditFilter & { limit: number; before?: string }) {
  const cursor = opts.before
    ? await db.auditEvent.findUnique({ where: { id: opts.before }, select: { at: true, id: true } })
    : null;
  return db.auditEvent.findMany({
    where: {
      ...auditWhere(opts),
      ...(cursor ? { OR: [{ at: { lt: cursor.at } }, { at: cursor.at, id: { lt: cursor.id } }] } : {}),
    },
    orderBy: [{ at: 'desc' }, { id: 'desc' }],
    take: opts.limit,
  });
}

/** How many entries match a filter, so that a page can say where in the log the reader is. */
export function countAuditEvents(db: Db, filter: AuditFilter): Promise<number> {
  return db.auditEvent.count({ where: auditWhere(filter) });
}

/** The values each filter can take: only those the log holds, so no choice leads to an empty page. */
export async function auditFilterChoices(db: Db) {
  const [actors, actions, targets, vias] = await Promise.all([
    db.auditEvent.findMany({ distinct: ['actorEmail'], select: { actorEmail: true }, orderBy: { actorEmail: 'asc' } }),
    db.auditEvent.findMany({ distinct: ['action'], select: { action: true }, orderBy: { action: 'asc' } }),
    db.auditEvent.findMany({ distinct: ['targetType'], select: { targetType: true }, orderBy: { targetType: 'asc' } }),
    db.auditEvent.findMany({ distinct: ['via'], select: { via: true }, orderBy: { via: 'asc' } }),
  ]);
  return {
    actorEmail: actors.map((a) => a.actorEmail),
    action: actions.map((a) => a.action),
    targetType: targets.map((t) => t.targetType),
    via: vias.map((v) => v.via),
  };
}

/**
 * What the entries' targets are called today (a campaign's name, a token's name, a user's email),
 * keyed by target type and id. A target deleted since has no name: the page shows its id.
 */
export async function auditTargetNames(db: Db, events: readonly { targetType: string; targetId: string | null }[]) {
  const ids = (type: string) => [
    ...new Set(events.filter((e) => e.targetType === type && e.targetId).map((e) => e.targetId!)),
  ];
  const [campaigns, tokens, users] = await Promise.all([
    db.campaign.findMany({ where: { id: { in: ids('campaign') } }, select: { id: true, name: true } }),
    db.apiToken.findMany({ where: { id: { in: ids('token') } }, select: { id: true, name: true } }),
    db.user.findMany({ where: { id: { in: ids('user') } }, select: { id: true, email: true } }),
  ]);
  const names = new Map<string, string>();
  for (const c of campaigns) names.set(`campaign:${c.id}`, c.name);
  for (const t of tokens) names.set(`token:${t.id}`, t.name);
  for (const u of users) names.set(`user:${u.id}`, u.email);
  return names;
}
