import 'server-only';
import { recordAudit, type AuditActor, type AuditEntry } from '@gitbench/db';
import { services } from '../services';
import type { Actor } from './guard';

/** Who the audit log names for a signed-in caller. */
export function auditActor(actor: Actor): AuditActor {
  return { userId: actor.userId, email: actor.email, via: actor.via };
}

/** Writes the audit log entry for what a signed-in caller just did. */
export function audit(actor: Actor, entry: AuditEntry): Promise<void> {
  return recordAudit(services().db, auditActor(actor), entry);
}
