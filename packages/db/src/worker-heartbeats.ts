import type { Db } from './client';

/**
 * Removes the heartbeat rows of workers silent for longer than `silentForMs`: a worker killed with -9
 * never deletes its own row, and the status page listed it for good. Any live worker calls this now and
 * then; a row it removes by mistake (a worker only paused) comes back with that worker's next beat.
 */
export async function expireWorkerHeartbeats(db: Db, silentForMs: number, now = new Date()): Promise<number> {
  const { count } = await db.workerHeartbeat.deleteMany({
    where: { lastSeenAt: { lt: new Date(now.getTime() - silentForMs) } },
  });
  return count;
}
