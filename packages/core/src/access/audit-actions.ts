/** Everything the audit log records, by name. */
export const AUDIT_ACTIONS = [
  'campaign.create',
  'campaign.cancel',
  'campaign.retry',
  'campaign.export',
  'campaign.review',
  'campaign.publish',
  'campaign.unpublish',
  'leaderboard.export',
  'items.export',
  'user.create',
  'user.update',
  'token.create',
  'token.revoke',
  'key.set',
  'key.delete',
  'settings.update',
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

/** How an audited actor proved who they are. */
export type AuditVia = 'session' | 'token' | 'cli';
