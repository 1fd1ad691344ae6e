import { describe, expect, it } from 'vitest';
import { QueueLossWatch } from '../src/queue-loss';

/** A Redis reduced to the queue's marker, and a resend that counts its calls. */
function bed(opts: { present: boolean; sent?: number; failResend?: number }) {
  const state = {
    present: opts.present,
    resends: [] as Date[],
    lines: [] as string[],
    clock: 1_000_000,
    failResend: opts.failResend ?? 0,
  };
  const watch = new QueueLossWatch({
    queue: {
      queuePresent: async () => state.present,
      markQueuePresent: async () => {
        state.present = true;
      },
    },
    resend: async (since) => {
      state.resends.push(since);
      if (state.failResend-- > 0) throw new Error('database away');
      return { sent: opts.sent ?? 3, capped: 0 };
    },
    log: (l) => state.lines.push(l),
    now: () => state.clock,
  });
  return { state, watch };
}

describe('noticing that Redis lost the queue', () => {
  it('does nothing while the marker is there', async () => {
    const { state, watch } = bed({ present: true });
    await watch.check();
    expect(state.resends).toEqual([]);
    expect(await watch.explains()).toBe(false);
  });

  it(
    'sends again once when the marker is gone, writes it back, ' +
      'says so in one line, and explains lost jobs for a minute',
    async () => {
      const { state, watch } = bed({ present: true, sent: 7 });
      await watch.check();
      state.present = false;
      // Three triggers at once (a reconnect, a reaper pass, a missing job): one resend, one line.
      await Promise.all([watch.check(), watch.check(), watch.explains()]);
      expect(state.resends).toEqual([new Date(1_000_000)]);
      expect(state.present).toBe(true);
      expect(state.lines).toHaveLength(1);
      expect(state.lines[0]).toMatch(
        /came back without this queue's jobs .*: 7 queued attempt\(s\) sent again at once/,
      );
      expect(await watch.explains()).toBe(true);
      state.clock += 60_000;
      expect(await watch.explains()).toBe(false);
    },
  );

  it('is silent at the start of a new deployment that finds nothing to send', async () => {
    const { state, watch } = bed({ present: false, sent: 0 });
    await watch.check();
    expect(state.resends).toHaveLength(1);
    expect(state.lines).toEqual([]);
  });

  it('leaves the marker out after a resend that failed, so the next check sends again', async () => {
    const { state, watch } = bed({ present: false, failResend: 1 });
    await expect(watch.check()).rejects.toThrow('database away');
    expect(state.present).toBe(false);
    await watch.check();
    expect(state.resends).toHaveLength(2);
    expect(state.present).toBe(true);
  });
});
