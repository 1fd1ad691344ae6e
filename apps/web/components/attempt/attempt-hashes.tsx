import type { ReactNode } from 'react';
import type { AttemptEvidence } from '@gitbench/core';
import { Section } from '@/components/empty-state';
import { Copyable, Facts, JsonBlock } from '@/components/evidence';
import { productVersion } from '@/components/format';
import { LocalTime } from '@/components/local-time';
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
    ['attempt', <Copyable key="id" text={a.id} label="attempt id" />],
    ['fixture input hash', <Copyable key="input" text={a.inputHash ?? fx.inputHash} label="fixture input hash" />],
    [
      'fixture definition hash',
      <Copyable
        key="definition"
        text={ev?.origin === 'gitbench' ? ev.scoring?.hashes.definition : undefined}
        label="fixture definition hash"
      />,
    ],
    ['rendered prompt hash', <Copyable key="prompt" text={a.promptHash} label="rendered prompt hash" />],
    ['expected output hash', <Copyable key="expected" text={a.expectedHash} label="expected output hash" />],
    ['scorer config hash', <Copyable key="scorer" text={a.scorerConfigHash} label="scorer config hash" />],
    ['request config hash', <Copyable key="request" text={a.requestConfigHash} label="request config hash" />],
    ['model output hash', <Copyable key="output" text={a.outputHash} label="model output hash" />],
    [
      'sandbox image',
      a.sandboxImage ? <Copyable key="image" text={a.sandboxImage} label="sandbox image" /> : 'none (scored on text)',
    ],
    ['GitBench (worker)', productVersion(a.productVersion, a.productDirty)],
    ['profile', a.target.profile],
    [
      'queued / started / finished',
      <span key="times" className="font-sans" data-testid="attempt-times">
        <LocalTime at={a.queuedAt} seconds /> / <LocalTime at={a.startedAt} seconds /> /{' '}
        <LocalTime at={a.finishedAt} seconds />
      </span>,
    ],
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
            <JsonBlock value={calls.route} label="provider route" copy />
          </div>
          <div>
            <h3 className="text-sm font-medium">Request configuration</h3>
            <JsonBlock value={calls.requestConfig} label="request configuration" copy />
          </div>
          <div>
            <h3 className="text-sm font-medium">Provider retries and usage</h3>
            <JsonBlock value={calls.usage} label="retries and usage" copy />
          </div>
        </div>
      ) : null}
    </Section>
  );
}
