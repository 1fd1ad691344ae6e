import { agentConfigSchema, type AgentConfig, type Fixture } from '@gitbench/core';
import type { Db } from '@gitbench/db';

/** What an attempt needs of its fixture snapshot, campaign and target. */
export interface PlannedSnapshot {
  fixture: Fixture;
  inputHash: string;
  repoState: string;
  buildInfo: Record<string, unknown>;
}

/**
 * Rows that never change once a campaign is planned (its configuration is immutable, a snapshot is
 * written once by planning, a target is fixed at creation), read once per worker process instead of
 * once per attempt: a campaign runs the same few hundred snapshots across every target and trial.
 */
export class PlannedRows {
  private readonly snapshots = new Bounded<PlannedSnapshot>();
  private readonly campaigns = new Bounded<{ seed: number; judgeProfile?: string; agent?: AgentConfig }>();
  private readonly targets = new Bounded<{ profile: string; agent: string | null }>();

  constructor(private readonly db: Db) {}

  snapshot(id: string): Promise<PlannedSnapshot> {
    return this.snapshots.get(id, async () => {
      const snap = await this.db.fixtureSnapshot.findUniqueOrThrow({
        where: { id },
        select: { definition: true, inputHash: true, repoState: true, buildInfo: true },
      });
      if (!snap.inputHash || !snap.repoState || !snap.buildInfo)
        throw new Error(`fixture snapshot ${id} was never built`);
      return {
        fixture: snap.definition as unknown as Fixture,
        inputHash: snap.inputHash,
        repoState: snap.repoState,
        buildInfo: snap.buildInfo as Record<string, unknown>,
      };
    });
  }

  /**
   * The snapshot as planning just wrote it, so this worker's attempts need not read it back. Only for
   * a snapshot the caller's own write stored (never one another planner wrote): the values are those
   * of that write, JSON-normalized as the database would give them back.
   */
  prime(id: string, definition: unknown, built: { inputHash: string; repoState: string; buildInfo: unknown }): void {
    this.snapshots.set(id, {
      fixture: definition as Fixture,
      inputHash: built.inputHash,
      repoState: built.repoState,
      buildInfo: JSON.parse(JSON.stringify(built.buildInfo)) as Record<string, unknown>,
    });
  }

  campaign(id: string) {
    return this.campaigns.get(id, async () => {
      const c = await this.db.campaign.findUniqueOrThrow({ where: { id }, select: { seed: true, config: true } });
      const { judgeProfile, agent } = c.config as { judgeProfile?: string; agent?: unknown };
      // The stored configuration is canonical (defaults spelled out); parsing again keeps older rows readable.
      return { seed: c.seed, ...(judgeProfile ? { judgeProfile } : {}), agent: agentConfigSchema.parse(agent ?? {}) };
    });
  }

  target(id: string) {
    return this.targets.get(id, () =>
      this.db.campaignTarget.findUniqueOrThrow({ where: { id }, select: { profile: true, agent: true } }),
    );
  }
}

/** A map that forgets its oldest entries past a size, holding promises so concurrent readers share one query. */
class Bounded<T> {
  private readonly entries = new Map<string, Promise<T>>();
  constructor(private readonly max = 4096) {}

  set(key: string, value: T): void {
    this.put(key, Promise.resolve(value));
  }

  get(key: string, load: () => Promise<T>): Promise<T> {
    let p = this.entries.get(key);
    if (!p) {
      p = load();
      this.put(key, p);
      // A failed read is not remembered: the next attempt asks again.
      p.catch(() => this.entries.delete(key));
    }
    return p;
  }

  private put(key: string, p: Promise<T>): void {
    this.entries.set(key, p);
    if (this.entries.size > this.max) this.entries.delete(this.entries.keys().next().value!);
  }
}
