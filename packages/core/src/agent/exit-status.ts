/**
 * Why an Agent's loop ended. One table holds every property of an exit status, so the runtime, the
 * outcome mapping, the pages and the methodology read the same facts.
 */
export const AGENT_EXIT_STATUSES = [
  'submitted',
  'model_stopped',
  'turn_limit',
  'token_limit',
  'cost_limit',
  'time_limit',
  'format_errors',
  'agent_crashed',
  'model_error',
  'sandbox_error',
  'tampering',
  'cancelled',
] as const;
export type AgentExitStatus = (typeof AGENT_EXIT_STATUSES)[number];

interface ExitStatusClass {
  /** The fixture's scorer judges what the agent left (the repository or its submitted answer). */
  scored: boolean;
  /**
   * The attempt counts as a quality outcome. False only for infrastructure: the model's endpoint or
   * the sandbox failed, which says nothing about the model, so the attempt is excluded from quality
   * denominators and may be retried. Tampering is counted without being scored: a failure.
   */
  counted: boolean;
  /** A configured limit stopped the loop (the viewer offers "jump to the limit"). */
  limit: boolean;
  description: string;
}

const EXIT_STATUS_CLASSES: Record<AgentExitStatus, ExitStatusClass> = {
  submitted: { scored: true, counted: true, limit: false, description: 'the agent called submit' },
  model_stopped: {
    scored: true,
    counted: true,
    limit: false,
    description: 'the model ended the conversation without submitting',
  },
  turn_limit: { scored: true, counted: true, limit: true, description: 'the turn limit was reached' },
  token_limit: { scored: true, counted: true, limit: true, description: 'the token limit was reached' },
  cost_limit: { scored: true, counted: true, limit: true, description: 'the cost limit was reached' },
  time_limit: { scored: true, counted: true, limit: true, description: 'the wall-clock limit was reached' },
  format_errors: {
    scored: true,
    counted: true,
    limit: false,
    description: 'three turns in a row without a usable tool call',
  },
  // A third-party agent is part of the target (agent × model): its own failure is the target's, and
  // the repository is scored as it left it.
  agent_crashed: {
    scored: true,
    counted: true,
    limit: false,
    description: 'the third-party agent exited with an error of its own (no budget limit, no provider failure)',
  },
  model_error: {
    scored: false,
    counted: false,
    limit: false,
    description: 'the model endpoint failed after its retries (infrastructure)',
  },
  sandbox_error: { scored: false, counted: false, limit: false, description: 'the sandbox failed (infrastructure)' },
  tampering: {
    scored: false,
    counted: true,
    limit: false,
    description:
      "the agent's processes tampered with the sandbox's channel " +
      "or the scorer's view (a counted failure, never retried)",
  },
  // Set by the worker, never by the loop: the cancel removes the campaign's sandboxes, often before the
  // worker hears of it, and the loop then ends on a sandbox that is gone.
  cancelled: {
    scored: false,
    counted: false,
    limit: false,
    description: 'the campaign was cancelled while the agent worked (excluded; its sandbox was removed)',
  },
};

export function isAgentExitStatus(value: string): value is AgentExitStatus {
  return (AGENT_EXIT_STATUSES as readonly string[]).includes(value);
}

export function exitStatusIsScored(status: AgentExitStatus): boolean {
  return EXIT_STATUS_CLASSES[status].scored;
}

/** Counts in quality denominators: every exit but the infrastructure ones. */
export function exitStatusIsCounted(status: AgentExitStatus): boolean {
  return EXIT_STATUS_CLASSES[status].counted;
}

export function exitStatusIsLimit(status: AgentExitStatus): boolean {
  return EXIT_STATUS_CLASSES[status].limit;
}

export function describeExitStatus(status: AgentExitStatus): string {
  return EXIT_STATUS_CLASSES[status].description;
}
