import { GATEWAY_LIMIT_EXIT_STATUS, type AgentExitStatus, type GatewayLimitName } from '@gitbench/core';
import type { BackendAnswer } from './conversation';

/** An attempt's limits at the gateway; an absent limit is not enforced. */
export interface GatewayBudget {
  maxCalls?: number;
  maxInputTokens?: number;
  maxOutputTokens?: number;
  maxTotalTokens?: number;
  maxCostUsd?: number;
  /** From the gateway's start: past it, every call is refused (the engine also stops the agent). */
  wallTimeMs?: number;
}

/** The limit that stopped the attempt, what was used and allowed, and the exit status it maps to. */
export interface BudgetLimit {
  limit: GatewayLimitName;
  used: number;
  max: number;
  exitStatus: AgentExitStatus;
  message: string;
}

const UNIT: Record<GatewayLimitName, string> = {
  calls: 'model calls',
  input_tokens: 'input tokens',
  output_tokens: 'output tokens',
  total_tokens: 'tokens',
  cost: 'USD',
  wall_time: 'ms of wall time',
};

function limitOf(limit: GatewayLimitName, used: number, max: number): BudgetLimit {
  const shown = limit === 'cost' ? used.toFixed(4) : String(Math.round(used));
  return {
    limit,
    used,
    max,
    exitStatus: GATEWAY_LIMIT_EXIT_STATUS[limit],
    message:
      `GitBench budget exhausted: the attempt's ${limit.replace('_', ' ')} limit is ` +
      `reached (${shown} of ${max} ${UNIT[limit]}); no further model calls are answered`,
  };
}

/**
 * What an attempt has spent. A call is let through while every limit still has room; its answer is
 * delivered even when it overshoots (the tokens are spent by then), and the next call is refused.
 * Unknown token counts and costs (a built-in model, a provider that does not say) count as nothing:
 * a cost limit over a model without prices cannot be enforced, which `costUnknownCalls` shows.
 */
export class BudgetTracker {
  calls = 0;
  inputTokens = 0;
  outputTokens = 0;
  costUsd = 0;
  costUnknownCalls = 0;
  private reached: BudgetLimit | null = null;

  constructor(
    private readonly budget: GatewayBudget,
    private readonly startedAt: number,
  ) {}

  /** The limit that refused a call, if one did (an agent that stopped exactly at a limit was not stopped by it). */
  exhausted(): BudgetLimit | null {
    return this.reached;
  }

  /** Before a call: the limit it would break, which from then on refuses every call. */
  check(now = performance.now()): BudgetLimit | null {
    if (this.reached) return this.reached;
    const b = this.budget;
    const checks: [GatewayLimitName, number, number | undefined][] = [
      ['wall_time', now - this.startedAt, b.wallTimeMs],
      ['calls', this.calls, b.maxCalls],
      ['input_tokens', this.inputTokens, b.maxInputTokens],
      ['output_tokens', this.outputTokens, b.maxOutputTokens],
      ['total_tokens', this.inputTokens + this.outputTokens, b.maxTotalTokens],
      ['cost', this.costUsd, b.maxCostUsd],
    ];
    for (const [limit, used, max] of checks) {
      if (max !== undefined && used >= max) {
        this.reached = limitOf(limit, used, max);
        return this.reached;
      }
    }
    return null;
  }

  /** Counts a call as it is let through (so parallel calls cannot all pass the call limit at once). */
  admit(): void {
    this.calls += 1;
  }

  spend(answer: BackendAnswer): void {
    this.inputTokens += answer.inputTokens ?? 0;
    this.outputTokens += answer.outputTokens ?? 0;
    if (answer.costUsd === null) this.costUnknownCalls += 1;
    else this.costUsd += answer.costUsd;
  }
}
