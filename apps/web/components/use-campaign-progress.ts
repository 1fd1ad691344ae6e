'use client';

import { useRouter } from 'next/navigation';
import { useEffect, useRef, useState } from 'react';

export interface Progress {
  status: string;
  total: number;
  done: number;
  byStatus: Record<string, number>;
}

/** What GET /api/campaigns/:id answers that the live panel reads. */
interface CampaignReading {
  progress: Progress;
  etaSeconds: number | null;
}

const ACTIVE = ['PLANNING', 'QUEUED', 'RUNNING'];

const campaignUrl = (campaignId: string) => `/api/campaigns/${encodeURIComponent(campaignId)}`;

async function readCampaign(campaignId: string): Promise<Response> {
  return fetch(campaignUrl(campaignId), { cache: 'no-store' });
}

/**
 * The campaign's progress, read every 2 s while it is active (and, once cancelled, until its running
 * attempts have stopped); the server-rendered page is refreshed whenever the status changes.
 */
export function useCampaignProgress(campaignId: string, initial: Progress, initialEtaSeconds: number | null) {
  const router = useRouter();
  const [progress, setProgress] = useState(initial);
  const [etaSeconds, setEtaSeconds] = useState(initialEtaSeconds);
  const [error, setError] = useState<string | null>(null);
  const lastStatus = useRef(initial.status);
  const active = ACTIVE.includes(progress.status);
  // A cancelled campaign's running attempts stop at their next heartbeat, not at once: keep reading
  // until none is left, so the page shows what really runs instead of the counts at the moment of cancel.
  const unsettled = (progress.byStatus.RUNNING ?? 0) + (progress.byStatus.QUEUED ?? 0);
  const polling = active || unsettled > 0;

  useEffect(() => {
    if (!polling) return;
    let stopped = false;
    const tick = async () => {
      try {
        const res = await readCampaign(campaignId);
        if (!res.ok) throw new Error(`the server answered ${res.status}`);
        const body = (await res.json()) as CampaignReading;
        if (stopped) return;
        setProgress(body.progress);
        setEtaSeconds(body.etaSeconds ?? null);
        setError(null);
        if (body.progress.status !== lastStatus.current) {
          lastStatus.current = body.progress.status;
          router.refresh();
        }
      } catch (e) {
        if (!stopped) setError(`Live progress paused: ${(e as Error).message}. Retrying in 2 s.`);
      }
    };
    const id = setInterval(tick, 2000);
    void tick();
    return () => {
      stopped = true;
      clearInterval(id);
    };
  }, [polling, campaignId, router]);

  /** Reads the campaign once now (after an action) and takes its status as seen, without a refresh of its own. */
  async function reread(): Promise<void> {
    const r = await readCampaign(campaignId);
    if (!r.ok) return;
    const b = (await r.json()) as CampaignReading;
    setProgress(b.progress);
    setEtaSeconds(b.etaSeconds ?? null);
    lastStatus.current = b.progress.status;
  }

  return { progress, etaSeconds, error, active, reread };
}

export type CampaignAction = 'cancel' | 'retry';

function actionMessage(kind: CampaignAction, body: Record<string, unknown>): string {
  if (kind === 'cancel') {
    const stopped = Number(body.stoppedQueued ?? 0) > 0 ? ` (${String(body.stoppedQueued)} queued stopped)` : '';
    return `Cancelled: no new attempt will start${stopped}; running ones stop at their next heartbeat.`;
  }
  return (
    (body.replanned ? 'Planning sent again. ' : '') +
    `Re-queued ${String(body.requeued ?? body.retried ?? 'the')} infrastructure-failed attempt(s) as new tries.`
  );
}

/** Cancel and retry, each a POST to the campaign's API, then the campaign read again and the page refreshed. */
export function useCampaignActions(campaignId: string, reread: () => Promise<void>) {
  const router = useRouter();
  const [busy, setBusy] = useState<CampaignAction | null>(null);
  const [confirmingCancel, setConfirmingCancel] = useState(false);
  const [message, setMessage] = useState<string | null>(null);

  async function act(kind: CampaignAction) {
    setBusy(kind);
    setConfirmingCancel(false);
    setMessage(null);
    try {
      const res = await fetch(`${campaignUrl(campaignId)}/${kind}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{}',
      });
      const body = (await res.json().catch(() => ({}))) as Record<string, unknown>;
      if (!res.ok) throw new Error(typeof body.error === 'string' ? body.error : `the server answered ${res.status}`);
      setMessage(actionMessage(kind, body));
      await reread();
      router.refresh();
    } catch (e) {
      setMessage(`Could not ${kind === 'cancel' ? 'cancel' : 'retry'}: ${(e as Error).message}`);
    } finally {
      setBusy(null);
    }
  }

  return { busy, confirmingCancel, setConfirmingCancel, message, act };
}
