import type { AgentExitStatus } from './exit-status';
import type { GatewayCallRecord } from './gateway-call';

/** What is known when a third-party agent's process has ended. */
export interface ThirdPartyEnd {
  /** The budget limit the gateway refused a call for, with the exit status it means (null if none). */
  exhausted: { exitStatus: AgentExitStatus; message: string } | null;
  /** The agent's process ran past the attempt's wall time and was killed. */
  timedOut: boolean;
  /** The process's exit code (128 + signal for a signal); null when it never started. */
  exitCode: number | null;
  /** The last part of what the agent printed on stderr, for the detail. */
  stderrTail: string;
  calls: readonly Pick<GatewayCallRecord, 'errorKind' | 'error'>[];
}

/**
 * Why a third-party agent's attempt ended, from the gateway's records and the process's end, in this
 * order: a budget limit the gateway enforced (the agent surfaces the gateway's error and stops, whatever
 * its own exit code); the wall time; a provider failure the agent stopped on (infrastructure, never the
 * agent's); a clean exit (the agent ended its turn); anything else is the agent's own failure.
 */
export function thirdPartyExit(end: ThirdPartyEnd): { status: AgentExitStatus; detail: string | null } {
  if (end.exhausted) return { status: end.exhausted.exitStatus, detail: end.exhausted.message };
  if (end.timedOut) return { status: 'time_limit', detail: 'the agent ran past the wall-clock limit and was stopped' };
  const providerFailure = [...end.calls]
    .reverse()
    .find((c) => c.errorKind === 'provider_transient' || c.errorKind === 'provider_configuration');
  if (end.exitCode !== 0 && providerFailure)
    return { status: 'model_error', detail: providerFailure.error ?? providerFailure.errorKind };
  if (end.exitCode === 0) return { status: 'model_stopped', detail: null };
  const tail = end.stderrTail.trim().split('\n').slice(-3).join(' | ').slice(-300);
  const how =
    end.exitCode === null
      ? 'did not start'
      : end.exitCode > 128
        ? `was killed by signal ${end.exitCode - 128}`
        : `exited with code ${end.exitCode}`;
  return { status: 'agent_crashed', detail: `the agent ${how}${tail ? `: ${tail}` : ''}` };
}

/** The agent's answer: the text of its last answered call that asked for no tool. */
export function thirdPartySubmission(calls: readonly Pick<GatewayCallRecord, 'seq' | 'answer'>[]): string | null {
  const answered = [...calls]
    .sort((a, b) => b.seq - a.seq)
    .find((c) => c.answer !== null && c.answer.toolCalls.length === 0);
  return answered?.answer?.content ?? null;
}
