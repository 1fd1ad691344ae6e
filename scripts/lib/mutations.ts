/**
 * The one-line bugs scripts/mutation-audit.ts plants: those the audit of the test suite named (hashes,
 * command scorer, retry classification, sandbox quoting, the golden file, the count line) and more of
 * the same kinds in aggregation, scorers, classification, hashing and quoting. `from` must occur in
 * `file` as written; `tests` are the unit test paths run against it.
 */
export interface Mutation {
  id: string;
  file: string;
  from?: string;
  to?: string;
  /** Remove the file instead (a golden file gone missing). */
  delete?: boolean;
  /** The vitest project `tests` belong to: unit unless said. */
  project?: 'unit' | 'integration';
  tests: readonly string[];
}

// The unit tests of the module's own area: a whole package's suite takes over ten minutes a mutant on
// a loaded machine (the engine's builds repositories).
const HASHING = ['packages/core/test/fixtures'];
const SCORING = ['packages/core/test/scoring'];
const AGGREGATION = ['packages/core/test/aggregation'];
const CLASSIFICATION = ['packages/core/test/campaign', 'packages/core/test/models'];
const ENGINE = ['packages/engine/test/build-key.test.ts', 'packages/engine/test/snapshot-hashes.test.ts'];
const PROVIDERS = ['packages/providers/test'];

export const MUTATIONS: Mutation[] = [
  // Named by the audit.
  {
    id: 'input-hash-ignores-definition',
    file: 'packages/core/src/fixtures/hashing.ts',
    from: '{ definition: definitionHash, repoState',
    to: '{ repoState',
    tests: HASHING,
  },
  {
    id: 'build-key-drops-archive',
    file: 'packages/engine/src/fixture-build-steps.ts',
    from: 'archive: ARCHIVE_STEP.command,',
    to: '',
    tests: ENGINE,
  },
  {
    id: 'build-key-drops-state-code',
    file: 'packages/engine/src/fixture-build-steps.ts',
    from: '[s.command, s.thenPython ?? null]',
    to: '[s.command]',
    tests: ENGINE,
  },
  {
    id: 'snapshot-input-sans-definition',
    file: 'packages/engine/src/fixture-build-outcome.ts',
    from: 'inputHash: inputHash(definitionHash, state.stdout)',
    to: "inputHash: inputHash('', state.stdout)",
    tests: ENGINE,
  },
  {
    id: 'command-equivalence-prefix',
    file: 'packages/core/src/scoring/scorers/command-equivalence.ts',
    from: 'a.length === b.length &&\n    a.every(',
    to: 'a.every(',
    tests: SCORING,
  },
  {
    id: 'shellwords-dquote-backslash',
    file: 'packages/core/src/scoring/shell-words.ts',
    from: "ch !== '\\\\' && ch !== escapedState",
    to: 'ch !== escapedState',
    tests: SCORING,
  },
  {
    id: 'shellwords-dquote-any-escape',
    file: 'packages/core/src/scoring/shell-words.ts',
    from: "if (QUOTES.includes(escapedState) && ch !== '\\\\' && ch !== escapedState) token += '\\\\';",
    to: '',
    tests: SCORING,
  },
  {
    id: 'retry-408-permanent',
    file: 'packages/providers/src/http-errors.ts',
    from: 'f.status === 408 || ',
    to: '',
    tests: PROVIDERS,
  },
  {
    id: 'retry-409-permanent',
    file: 'packages/providers/src/http-errors.ts',
    from: 'f.status === 409 || ',
    to: '',
    tests: PROVIDERS,
  },
  {
    id: 'retry-425-permanent',
    file: 'packages/providers/src/http-errors.ts',
    from: ' || f.status === 425',
    to: '',
    tests: PROVIDERS,
  },
  {
    id: 'golden-trajectory-missing',
    file: 'packages/engine/test/agent/golden/scripted-conversation.json',
    delete: true,
    tests: ['packages/engine/test/agent/golden-trajectory.test.ts'],
  },
  {
    id: 'count-line-drops-outside-errors',
    file: 'scripts/lib/test-counts.ts',
    from: 'failed: report.numFailedTests + problems.length,',
    to: 'failed: report.numFailedTests,',
    tests: ['scripts/test'],
  },
  {
    id: 'count-line-drops-failed-steps',
    file: 'scripts/lib/test-counts.ts',
    from: 'return { ...NO_COUNTS, failed: problems.length, problems };',
    to: 'return { ...NO_COUNTS, problems };',
    tests: ['scripts/test'],
  },
  // More of the same kinds.
  {
    id: 'aggregation-wilson-without-z',
    file: 'packages/core/src/aggregation/rate.ts',
    from: 'const half = (z * Math.sqrt(',
    to: 'const half = (Math.sqrt(',
    tests: AGGREGATION,
  },
  {
    id: 'aggregation-pass-any-off-by-one',
    file: 'packages/core/src/aggregation/pass-any.ts',
    from: '({ n: i + 1, ...rateOf',
    to: '({ n: i, ...rateOf',
    tests: AGGREGATION,
  },
  {
    id: 'scorer-line-set-ignores-extras',
    file: 'packages/core/src/scoring/scorers/unordered-line-set.ts',
    from: 'const passed = missing.length === 0 && (allowExtra || extra.length === 0);',
    to: 'const passed = missing.length === 0;',
    tests: SCORING,
  },
  {
    id: 'scorer-similarity-strict-threshold',
    file: 'packages/core/src/scoring/scorers/similarity.ts',
    from: 'const passed = ratio >= threshold.value;',
    to: 'const passed = ratio > threshold.value;',
    tests: SCORING,
  },
  {
    id: 'scorer-exact-match-no-fence-strip',
    file: 'packages/core/src/scoring/scorers/exact-match.ts',
    from: "flagOption(fixture, 'strip_fences') ? (stripWrappingFence(output) ?? output) : output",
    to: 'output',
    tests: SCORING,
  },
  {
    id: 'classify-tampering-excluded',
    file: 'packages/core/src/campaign/attempt-outcome.ts',
    from: "return quality('VALID_FAIL', TAMPERING_ERROR_CLASS);",
    to: "return excluded('INFRA_FAILURE', TAMPERING_ERROR_CLASS, true);",
    tests: CLASSIFICATION,
  },
  {
    id: 'classify-cancelled-as-infra',
    file: 'packages/core/src/campaign/attempt-outcome.ts',
    from: "return excluded('CANCELLED', 'cancelled', false);",
    to: "return excluded('CANCELLED', 'cancelled', true);",
    tests: CLASSIFICATION,
  },
  {
    id: 'classify-unknown-error-quality',
    file: 'packages/core/src/models/errors.ts',
    from: "error.kind : 'transient';",
    to: "error.kind : 'quality';",
    tests: CLASSIFICATION,
  },
  {
    id: 'network-unknown-host-transient',
    file: 'packages/providers/src/http-errors.ts',
    from: "if (code === 'ENOTFOUND' || ",
    to: 'if (',
    tests: PROVIDERS,
  },
  {
    id: 'hash-canonical-json-unsorted',
    file: 'packages/core/src/canonical-json.ts',
    from: '.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))',
    to: '',
    tests: HASHING,
  },
  {
    id: 'hash-definition-keeps-source-path',
    file: 'packages/core/src/fixtures/hashing.ts',
    from: 'const { sourcePath: _sourcePath, ...definition } = fixture;',
    to: 'const definition = fixture;',
    tests: HASHING,
  },
  {
    id: 'hash-scorer-config-type-only',
    file: 'packages/core/src/fixtures/hashing.ts',
    from: 'return sha256Hex(canonicalJson(scoring));',
    to: 'return sha256Hex(canonicalJson({ type: scoring.type }));',
    tests: HASHING,
  },
  {
    id: 'lookup-graft-file-opens',
    file: 'packages/core/src/scoring/lookup-environment.ts',
    from: 'GIT_GRAFT_FILE: `${LOOKUP_HOME}/grafts`,',
    to: "GIT_GRAFT_FILE: '/dev/null',",
    tests: SCORING,
  },
  {
    id: 'quote-shell-quote-unescaped',
    file: 'packages/core/src/shell-quote.ts',
    from: "text.replace(/'/g, `'\\\\''`)",
    to: 'text',
    tests: [...HASHING, ...SCORING, 'packages/core/test/shell-quote', 'packages/sandbox/test/batch-script'],
  },
];

// The dashboard's query modules, each against the integration test that recomputes its figures from the seeded
// attempts.
const DASHBOARD = { project: 'integration', tests: ['apps/web/test/dashboard-queries.int.test.ts'] } as const;
MUTATIONS.push(
  {
    id: 'compare-domain-rate-over-attempts',
    file: 'apps/web/lib/queries/compare.ts',
    from: 'sum("valid") v, sum("passes") p',
    to: 'sum("attempts") v, sum("passes") p',
    ...DASHBOARD,
  },
  {
    id: 'compare-tallies-ignore-filters',
    file: 'apps/web/lib/queries/compare.ts',
    from: '${f.domain ? Prisma.sql`AND a."domain" = ${f.domain}` : Prisma.empty}',
    to: '',
    ...DASHBOARD,
  },
  {
    id: 'compare-side-any-output-mode',
    file: 'apps/web/lib/queries/compare.ts',
    from: '("modelId" = ${s.modelId} AND "outputMode" = ${s.outputMode}::"OutputMode"',
    to: '("modelId" = ${s.modelId} AND TRUE',
    ...DASHBOARD,
  },
  {
    id: 'quadrant-cost-from-totals',
    file: 'apps/web/lib/queries/quadrant.ts',
    from: 'pick: (r: LeaderboardRow) => r.perTrial.costUsd',
    to: 'pick: (r: LeaderboardRow) => r.totals.costUsd',
    ...DASHBOARD,
  },
  {
    id: 'quadrant-api-time-in-ms',
    file: 'apps/web/lib/queries/quadrant.ts',
    from: "metric === 'api' ? m.value / 1000 : m.value",
    to: 'm.value',
    ...DASHBOARD,
  },
  {
    id: 'model-classified-counts-legacy',
    file: 'apps/web/lib/queries/model.ts',
    from: 'coalesce(sum(s."fixtures")\n                   FILTER (WHERE NOT c."legacy"), 0) fx',
    to: 'coalesce(sum(s."fixtures"), 0) fx',
    ...DASHBOARD,
  },
  {
    id: 'model-slices-ignore-mode',
    file: 'apps/web/lib/queries/model.ts',
    from: '${f.mode ? Prisma.sql`AND s."outputMode" = ${f.mode}::"OutputMode"` : Prisma.empty}',
    to: '',
    ...DASHBOARD,
  },
  {
    id: 'model-over-time-over-attempts',
    file: 'apps/web/lib/queries/model.ts',
    from: 'SELECT s."campaignId", s."outputMode"::text AS "outputMode", s."agent", sum(s."valid") v',
    to: 'SELECT s."campaignId", s."outputMode"::text AS "outputMode", s."agent", sum(s."attempts") v',
    ...DASHBOARD,
  },
  {
    id: 'fixture-campaigns-oldest-first',
    file: 'apps/web/lib/queries/fixture.ts',
    from: 'ORDER BY c."createdAt" DESC',
    to: 'ORDER BY c."createdAt"',
    ...DASHBOARD,
  },
  {
    id: 'fixture-legacy-as-current',
    file: 'apps/web/lib/queries/fixture.ts',
    from: '[c.id, { trials: c.trials, legacy: c.legacy }]',
    to: '[c.id, { trials: c.trials, legacy: false }]',
    ...DASHBOARD,
  },
  {
    id: 'campaigns-complete-ignores-missing',
    file: 'apps/web/lib/queries/campaigns.ts',
    from: 'complete: r.complete && stats === planned',
    to: 'complete: r.complete',
    ...DASHBOARD,
  },
  {
    id: 'campaigns-legacy-held-as-incomplete',
    file: 'apps/web/lib/queries/campaigns.ts',
    from: "(f.campaign || f.incomplete === '1' || c.complete || c.legacy)",
    to: "(f.campaign || f.incomplete === '1' || c.complete)",
    ...DASHBOARD,
  },
  {
    id: 'export-per-trial-cost-is-total',
    file: 'apps/web/lib/queries/export.ts',
    from: 'p.costUsd.value,\n        p.costUsd.partial,',
    to: 't.costUsd.value,\n        p.costUsd.partial,',
    ...DASHBOARD,
  },
  {
    id: 'round-complete-when-any-valid',
    file: 'packages/db/src/stats/target-sums.ts',
    from: '("t_attempts_${n}" > 0 AND "t_valid_${n}" = "t_attempts_${n}")',
    to: '("t_attempts_${n}" > 0 AND "t_valid_${n}" > 0)',
    ...DASHBOARD,
  },
  {
    id: 'aa-export-total-counts-excluded',
    file: 'packages/db/src/exports/artificial-analysis.ts',
    from: 'rate.denominator,\n        rate.numerator,',
    to: 'g.attempts,\n        rate.numerator,',
    ...DASHBOARD,
  },
);
