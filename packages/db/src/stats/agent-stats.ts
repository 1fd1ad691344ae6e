import { AGENT_EXIT_STATUSES, type AgentExitStatus } from '@gitbench/core/figures';
import { sqlRows, type SqlSource } from '../pool';
import { empty, sql } from '../sql';

/** How an attempt's latest try ended: an exit status, or still running / abandoned (no exit status). */
export type AgentEnd = AgentExitStatus | 'running' | 'abandoned';
export const AGENT_ENDS: readonly AgentEnd[] = [...AGENT_EXIT_STATUSES, 'running', 'abandoned'];

/**
 * What the campaign, leaderboard and model pages show of an agent target: steps per attempt, how
 * the loops ended, and what a solved fixture cost. An agent target is one whose attempts have a
 * trajectory; the latest try's trajectory stands for its attempt, as the attempt's verdict does.
 */
export interface AgentTargetStats {
  campaignId: string | null;
  modelId: string;
  outputMode: string;
  /** The third-party agent driving the model; null: GitBench's own loop. */
  agent: string | null;
  attempts: number;
  stepsMean: number;
  stepsMax: number;
  exits: Record<AgentEnd, number>;
  /** Distinct fixtures with at least one passing attempt, and distinct fixtures tried. */
  solvedFixtures: number;
  fixtures: number;
  /** Cost of every attempt (the attempt's own sum over its model calls); null when any is unknown. */
  costUsd: number | null;
  /** costUsd / solvedFixtures; null when the cost is unknown or nothing was solved. */
  costPerSolvedFixture: number | null;
}

export interface AgentStatsScope {
  campaignId?: string;
  /** Only these campaigns (the leaderboard's included ones). */
  campaignIds?: readonly string[];
  domain?: string;
  difficulty?: string;
  mode?: string;
  modelId?: string;
  /** Group per campaign too (the model page's rows are campaign × target). */
  perCampaign?: boolean;
  includeLegacy?: boolean;
}

interface TargetRow {
  campaignId: string | null;
  modelId: string;
  outputMode: string;
  agent: string | null;
  attempts: bigint;
  stepsMean: number;
  stepsMax: number;
  solvedFixtures: bigint;
  fixtures: bigint;
  costUsd: number | null;
  costUnknown: boolean;
}

interface ExitRow {
  campaignId: string | null;
  modelId: string;
  outputMode: string;
  agent: string | null;
  end: string;
  n: bigint;
}

/** Per agent target (per campaign when asked), computed in SQL over the latest try of each attempt. */
export async function agentTargetStats(db: SqlSource, scope: AgentStatsScope = {}): Promise<AgentTargetStats[]> {
  const where = sql`WHERE TRUE
    ${scope.campaignId ? sql`AND a."campaignId" = ${scope.campaignId}` : empty}
    ${scope.campaignIds ? sql`AND a."campaignId" = ANY(${[...scope.campaignIds]}::text[])` : empty}
    ${scope.modelId ? sql`AND a."modelId" = ${scope.modelId}` : empty}
    ${scope.domain ? sql`AND a."domain" = ${scope.domain}` : empty}
    ${scope.difficulty ? sql`AND a."difficulty" = ${scope.difficulty}` : empty}
    ${scope.mode ? sql`AND a."outputMode"::text = ${scope.mode}` : empty}
    ${scope.includeLegacy ? empty : sql`AND NOT c."legacy"`}`;
  const campaignCol = scope.perCampaign || scope.campaignId ? sql`a."campaignId"` : sql`NULL::text`;
  const latest = sql`
    latest AS (
      SELECT DISTINCT ON (t."attemptId") t."attemptId", t."steps", t."status"::text AS status, t."exitStatus",
        t."costUsd"
        FROM "Trajectory" t
        JOIN "Attempt" a ON a."id" = t."attemptId"
        JOIN "Campaign" c ON c."id" = a."campaignId"
        ${where}
       ORDER BY t."attemptId", t."tryNumber" DESC
    )`;
  const [targets, exits] = await Promise.all([
    sqlRows<TargetRow>(
      db,
      sql`
      WITH ${latest}
      SELECT ${campaignCol} AS "campaignId", a."modelId", a."outputMode"::text AS "outputMode", g."agent",
             count(*) AS attempts, avg(l."steps")::float8 AS "stepsMean", max(l."steps") AS "stepsMax",
             count(DISTINCT (a."domain", a."fixtureId")) FILTER (WHERE a."status" = 'VALID_PASS') AS "solvedFixtures",
             count(DISTINCT (a."domain", a."fixtureId")) AS fixtures,
             sum(COALESCE(a."costUsd", l."costUsd"))::float8 AS "costUsd",
             bool_or(COALESCE(a."costUsd", l."costUsd") IS NULL) AS "costUnknown"
        FROM latest l JOIN "Attempt" a ON a."id" = l."attemptId" JOIN "CampaignTarget" g ON g."id" = a."targetId"
       GROUP BY 1, 2, 3, 4
       ORDER BY 1, 2, 3, 4 NULLS FIRST`,
    ),
    sqlRows<ExitRow>(
      db,
      sql`
      WITH ${latest}
      SELECT ${campaignCol} AS "campaignId", a."modelId", a."outputMode"::text AS "outputMode", g."agent",
             COALESCE(l."exitStatus", CASE WHEN l.status = 'abandoned' THEN 'abandoned' ELSE 'running' END) AS "end",
               count(*) AS n
        FROM latest l JOIN "Attempt" a ON a."id" = l."attemptId" JOIN "CampaignTarget" g ON g."id" = a."targetId"
       GROUP BY 1, 2, 3, 4, 5`,
    ),
  ]);
  const key = (r: { campaignId: string | null; modelId: string; outputMode: string; agent: string | null }) =>
    `${r.campaignId}\u0000${r.modelId}\u0000${r.outputMode}\u0000${r.agent ?? ''}`;
  const exitsByKey = new Map<string, Record<AgentEnd, number>>();
  for (const e of exits) {
    const k = key(e);
    const counts = exitsByKey.get(k) ?? (Object.fromEntries(AGENT_ENDS.map((s) => [s, 0])) as Record<AgentEnd, number>);
    // An exit status this code does not know yet counts as running rather than disappearing.
    const end = (AGENT_ENDS as readonly string[]).includes(e.end) ? (e.end as AgentEnd) : 'running';
    counts[end] += Number(e.n);
    exitsByKey.set(k, counts);
  }
  return targets.map((t) => {
    const solved = Number(t.solvedFixtures);
    const cost = t.costUnknown ? null : (t.costUsd ?? 0);
    return {
      campaignId: t.campaignId,
      modelId: t.modelId,
      outputMode: t.outputMode,
      agent: t.agent,
      attempts: Number(t.attempts),
      stepsMean: t.stepsMean,
      stepsMax: t.stepsMax,
      exits: exitsByKey.get(key(t)) ?? (Object.fromEntries(AGENT_ENDS.map((s) => [s, 0])) as Record<AgentEnd, number>),
      solvedFixtures: solved,
      fixtures: Number(t.fixtures),
      costUsd: cost,
      costPerSolvedFixture: cost !== null && solved > 0 ? cost / solved : null,
    };
  });
}
