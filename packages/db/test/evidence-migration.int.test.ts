import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseAttemptEvidence } from '@gitbench/core';
import { dropSchema, migrateAcross, MIGRATION_CAMPAIGN_ROWS } from '@gitbench/test-support';

const databaseUrl = process.env.DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/gitbench';
const MIGRATION = '_attempt_evidence_record';
const schema = `evm_${process.pid}`;
let client: pg.Client;

/** Rows as the worker and the legacy importer wrote them before the evidence was one record. */
const OLD_ROWS = `${MIGRATION_CAMPAIGN_ROWS}
INSERT INTO "Attempt" ("id","campaignId","targetId","fixtureSnapshotId","trial","modelId","outputMode","domain",
  "fixtureId","difficulty","apiDurationMs")
  VALUES ('a1','c1','t1','f1',1,'m','text','d','f001','easy',812),
    ('a2','c1','t1','f1',2,'m','text','d','f001','easy',NULL),
      ('a3','c1','t1','f1',3,'m','text','d','f001','easy',NULL);
INSERT INTO "AttemptTry" ("id","attemptId","tryNumber","workerId","status","startedAt","renderedPrompt","modelOutput",
  "expected","scorerEvidence","sandboxEvidence","transcript","requestConfig","providerRoute","retries","usage")
VALUES ('try1','a1',1,'w','VALID_FAIL', now(), 'Tag it.', 'git tag v1', 'git tag v2',
  '{"scoringType":"state_assertions","passed":false,"score":0,"checks":[{"check":"tag","ok":false,'
  '"detail":"v2 missing"}],"scoredText":"git tag v1","structuredError":null,"hashes":{"input":"i",'
  '"expectedInput":"i","definition":"d","prompt":"p","expected":"e","scorerConfig":"s"},'
  '"timings":{"totalMs":10,"modelMs":5,"sandboxMs":3,"scoreMs":1},"judge":null}',
  '{"kind":"docker","image":"img","imageId":"sha256:1","isolated":true,"sandboxId":"c0ffee",'
  '"evidence":{"answer":[{"command":"git tag v1","exitCode":0,"stdout":"","stderr":"","timedOut":false,'
  '"truncated":false,"durationMs":4}],"probes":{},"repoStateAfter":"HEAD abc"},"durationMs":30}',
  '[{"role":"user","content":"Tag it."},{"role":"assistant","content":"git tag v1","reasoning":"easy"}]',
  '{"provider":"openai","outputMode":"text"}',
  '{"provider":"openai","profile":"p","baseUrl":null,"requestedModel":"m","servedModel":"m-1",'
  '"responseId":"r1","upstreamProvider":null,"simulated":false}',
  '[{"attempt":1,"reason":"rate_limited","status":429,"message":"slow down","waitMs":1000,'
  '"waitSource":"retry_after","durationMs":12}]',
  '{"inputTokens":10,"outputTokens":5,"reasoningTokens":null,"totalTokens":15,"cost":{"source":"estimated",'
  '"usd":0.001,"priceDate":"2026-01-01"},"flags":[],"qualityFailure":null,"reasoning":"easy"}'),
 ('try2','a2',1,'w','INFRA_FAILURE', now(), NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL),
 ('try3','a3',1,'upstream','VALID_PASS', now(), 'Q', 'A', 'A',
   '{"source":"upstream","passed":true,"similarity":1,"error":null}', NULL,
  '[{"role":"user","content":"Q"},{"role":"assistant","content":"A"}]', '{}', '{"adapter":"openrouter"}',
    '{"attempts":1}',
  '{"input":3,"output":1,"reasoning":null,"total":4,"costUsd":null}');
UPDATE "AttemptTry" SET "errorClass" = 'transient', "errorMessage" = 'Gave up after 3 attempt(s)' WHERE "id" = 'try2';
`;

beforeAll(async () => {
  client = await migrateAcross(databaseUrl, schema, MIGRATION, OLD_ROWS);
});
afterAll(async () => {
  await client?.end();
  await dropSchema(databaseUrl, schema);
});

describe('the evidence migration', () => {
  it("turns every try's old columns into one record that core parses", async () => {
    const { rows } = await client.query<{ id: string; evidence: unknown }>(
      'SELECT "id", "evidence" FROM "AttemptTry" ORDER BY "id"',
    );
    const byId = Object.fromEntries(rows.map((r) => [r.id, r.evidence]));
    const run = parseAttemptEvidence(byId.try1);
    expect(run).toMatchObject({
      origin: 'gitbench',
      mode: 'text',
      prompt: 'Tag it.',
      output: 'git tag v1',
      expected: 'git tag v2',
      error: null,
    });
    if (run.origin !== 'gitbench') throw new Error('unreachable');
    expect(run.scoring).toMatchObject({
      outcome: 'FAIL',
      checks: [{ check: 'tag', ok: false }],
      hashes: { definition: 'd' },
    });
    expect(run.sandbox).toMatchObject({
      kind: 'docker',
      sandboxId: 'c0ffee',
      evidence: { repoStateAfter: 'HEAD abc' },
    });
    expect(run.calls).toHaveLength(1);
    expect(run.calls[0]).toMatchObject({
      apiDurationMs: 812,
      reasoning: 'easy',
      usage: { totalTokens: 15 },
      cost: { source: 'estimated' },
      retries: [{ status: 429 }],
    });
    expect(byId.try2).toBeNull();
    const legacy = parseAttemptEvidence(byId.try3);
    expect(legacy).toMatchObject({
      origin: 'upstream',
      verdict: { passed: true, similarity: 1 },
      usage: { total: 4 },
      route: { adapter: 'openrouter' },
    });
  });
});
