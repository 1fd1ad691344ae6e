import { campaignProgress, summarizeCampaign, type Db } from '@gitbench/db';
import type { CampaignApi } from './api-client';
import { createProgress } from '../progress';

const FINISHED = new Set(['COMPLETED', 'CANCELLED', 'FAILED']);

/**
 * Follows a campaign until it finishes: a progress bar on a terminal, otherwise a line whenever the
 * count of finished attempts or the status changes (at most every few seconds). The workers do the
 * work; stopping this (Ctrl-C) stops only the watching.
 */
export async function followCampaign(db: Db, campaignId: string, opts: FollowOptions = {}): Promise<string> {
  return follow(campaignId, () => campaignProgress(db, campaignId), opts);
}

/** Follows a campaign to its end, then reads its summary. */
export async function followToSummary(db: Db, campaignId: string) {
  const status = await followCampaign(db, campaignId);
  return { status, summary: await summarizeCampaign(db, campaignId) };
}

/** The same, reading the progress from the web app's API. */
export async function followCampaignViaApi(
  api: CampaignApi,
  campaignId: string,
  opts: FollowOptions = {},
): Promise<string> {
  return follow(
    campaignId,
    async () => (await api.json<{ progress: Progress }>('GET', `/api/campaigns/${campaignId}`)).body.progress,
    opts,
  );
}

interface FollowOptions {
  intervalMs?: number;
  log?: (line: string) => void;
}

interface Progress {
  status: string;
  done: number;
  total: number;
}

async function follow(campaignId: string, read: () => Promise<Progress>, opts: FollowOptions): Promise<string> {
  const intervalMs = opts.intervalMs ?? 1000;
  const log = opts.log ?? ((line: string) => process.stderr.write(`${line}\n`));
  const bar = createProgress(campaignId);
  let last = '';
  let lastAt = 0;
  for (;;) {
    const p = await read();
    bar.update(p.done, p.total, p.status.toLowerCase());
    const line = `${p.status.toLowerCase()}: ${p.done}/${p.total} attempt(s) done`;
    const finished = FINISHED.has(p.status);
    if (
      !process.stderr.isTTY &&
      line !== last &&
      (finished || Date.now() - lastAt >= 5 * intervalMs || last.split(':')[0] !== line.split(':')[0])
    ) {
      log(`${campaignId} ${line}`);
      last = line;
      lastAt = Date.now();
    }
    if (finished) {
      bar.done();
      return p.status;
    }
    await new Promise((r) => setTimeout(r, intervalMs));
  }
}
