import {
  AGENT_EXIT_STATUSES,
  describeExitStatus,
  exitStatusIsCounted,
  exitStatusIsLimit,
  exitStatusIsScored,
} from '@gitbench/core';
import { H } from './heading';

/** Every exit status of the agent loop, from core's one table: when it happens, whether it is scored and counted. */
function ExitStatusTable() {
  return (
    <table className="w-full text-left text-xs" data-testid="methodology-exit-statuses">
      <thead className="text-slate-500">
        <tr>
          <th className="py-1 pr-2 font-medium">Exit status</th>
          <th className="py-1 pr-2 font-medium">When</th>
          <th className="py-1 pr-2 font-medium">Scored</th>
          <th className="py-1 pr-2 font-medium">Counted</th>
        </tr>
      </thead>
      <tbody>
        {AGENT_EXIT_STATUSES.map((s) => (
          <tr key={s} className="border-t border-slate-100 align-top">
            <td className="py-1 pr-2 font-mono">{s}</td>
            <td className="py-1 pr-2">
              {describeExitStatus(s)}
              {exitStatusIsLimit(s) ? ' (a limit)' : ''}
            </td>
            <td className="py-1 pr-2">{exitStatusIsScored(s) ? 'yes' : 'no'}</td>
            <td className="py-1 pr-2">{exitStatusIsCounted(s) ? 'yes' : 'no (excluded)'}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** Agent mode: steps, exit statuses, solved fixtures and the cost per solved fixture. */
export function AgentSections() {
  return (
    <>
      <H id="agents">Agents: steps, exit statuses, solved fixtures</H>
      <p>
        In agent mode a target works in the attempt's sandbox through tools for many turns. A <strong>step</strong> is
        one turn: one answer of the model and the tool calls it made, with their outputs and the repository as read
        after them. An attempt&apos;s step count, and a target&apos;s mean and maximum over its attempts, are read from
        the trajectory of each attempt&apos;s latest try, as its verdict is.
      </p>
      <p>
        Every loop ends with one <strong>exit status</strong>. Scored: the fixture&apos;s scorer judges what the agent
        left, the repository or its submitted answer. Counted: the attempt enters mean success like any other; the ones
        not counted are infrastructure, excluded and retried as a single answer&apos;s would be. Tampering is counted
        without being scored, so it is a failure.
      </p>
      <ExitStatusTable />
      <p>
        A target&apos;s <strong>solved fixtures</strong> are the distinct fixtures where at least one of its attempts
        passed, over the distinct fixtures it tried. <strong>Cost per solved fixture</strong> is the cost of all its
        attempts (each attempt&apos;s sum over its model calls) divided by its solved fixtures: unknown when any
        attempt&apos;s cost is, and shown as none when nothing was solved. Judge calls are never part of a target&apos;s
        cost.
      </p>
    </>
  );
}
