import type { ReactNode } from 'react';
import type { AttemptEvidence } from '@gitbench/core';
import { Section } from '@/components/empty-state';
import { Facts, JsonBlock } from '@/components/evidence';
import { date, DASH, productVersion } from '@/components/format';
import type { AttemptRecord } from '@/lib/queries/attempt';

/** The transcript, route, request and usage of every model call, however the try was recorded. */
export function callsOf(ev: AttemptEvidence | null) {
  if (!ev) return { transcript: [] as unknown[], route: null, requestConfig: null, usage: null };
  if (ev.origin === 'upstream') {
    return {
      transcript: ev.transcript,
      route: ev.route,
      requestConfig: ev.requestConfig,
      usage: { telemetry: ev.telemetry, usage: ev.usage },
    };
  }
  const calls = ev.calls;
  const one = <T,>(pick: (c: (typeof calls)[number]) => T) => (calls.length === 1 ? pick(calls[0]!) : calls.map(pick));
  const usage = (c: (typeof calls)[number]) => ({
    retries: c.retries,
    usage: c.usage,
    cost: c.cost,
    apiDurationMs: c.apiDurationMs,
    flags: c.flags,
    qualityFailure: c.qualityFailure,
  });
  return {
    transcript: calls.flatMap((c) => c.transcript),
    route: calls.length ? one((c) => c.route) : null,
    requestConfig: calls.length ? one((c) => c.requestConfig) : null,
    usage: calls.length ? one(usage) : null,
  };
}

function hashFacts(a: AttemptRecord, ev: AttemptEvidence | null): [string, ReactNode][] {
  const fx = a.fixtureSnapshot;
  return [
    ['attempt', a.id],
    ['fixture input hash', a.inputHash ?? fx.inputHash ?? DASH],
    ['fixture definition hash', (ev?.origin === 'gitbench' ? ev.scoring?.hashes.definition : undefined) ?? DASH],
    ['rendered prompt hash', a.promptHash ?? DASH],
    ['expected output hash', a.expectedHash ?? DASH],
    ['scorer config hash', a.scorerConfigHash ?? DASH],
    ['request config hash', a.requestConfigHash ?? DASH],
    ['model output hash', a.outputHash ?? DASH],
    ['sandbox image', a.sandboxImage ?? 'none (scored on text)'],
    ['GitBench (worker)', productVersion(a.productVersion, a.productDirty)],
    ['profile', a.target.profile],
    ['queued / started / finished', `${date(a.queuedAt)} / ${date(a.startedAt)} / ${date(a.finishedAt)}`],
  ];
}

/** Every hash the attempt was checked against, and, once a try finished, its provider route, request and usage. */
export function AttemptHashes({
  a,
  ev,
  finished,
}: {
  a: AttemptRecord;
  ev: AttemptEvidence | null;
  finished: boolean;
}) {
  const calls = callsOf(ev);
  return (
    <Section title="Hashes, route and sandbox" id="hashes">
      {a.campaign.legacy ? (
        <p className="text-sm text-slate-600">
          Imported from an upstream result file, which records no hashes and ran no sandbox: they show as
          &ldquo;—&rdquo;.
        </p>
      ) : null}
      <Facts testId="hashes" items={hashFacts(a, ev)} />
      {finished ? (
        <div className="grid gap-3 lg:grid-cols-3">
          <div>
            <h3 className="text-sm font-medium">Provider route</h3>
            <JsonBlock value={calls.route} label="provider route" />
          </div>
          <div>
            <h3 className="text-sm font-medium">Request configuration</h3>
            <JsonBlock value={calls.requestConfig} label="request configuration" />
          </div>
          <div>
            <h3 className="text-sm font-medium">Provider retries and usage</h3>
            <JsonBlock value={calls.usage} label="retries and usage" />
          </div>
        </div>
      ) : null}
    </Section>
  );
}
