import type { AttemptSandbox } from '@gitbench/core';
import { Section } from '@/components/empty-state';
import { Pre } from '@/components/evidence';
import type { AttemptRecord } from '@/lib/queries/attempt';

/** The repository before the answer (the fixture's snapshot) and after it (read in the attempt's sandbox). */
export function RepositoryState({
  fx,
  sandbox,
}: {
  fx: AttemptRecord['fixtureSnapshot'];
  sandbox: AttemptSandbox | null;
}) {
  return (
    <Section title="Repository state" id="repo">
      <p className="text-sm text-slate-600">
        Before the answer: the repository every attempt of this fixture starts from, as built when the campaign was
        planned (its hash is the fixture input hash below). After the answer: the same description read in this
        attempt&apos;s sandbox once the answer and the scorer&apos;s look-ups ran (attempts scored on text alone ran
        nothing, so there is no after).
      </p>
      {fx.repoState ? (
        <Pre label="repository state before the answer" copy="repository state before">
          {fx.repoState}
        </Pre>
      ) : (
        <p className="text-sm text-slate-500">Not recorded (legacy imports have none).</p>
      )}
      {sandbox?.kind !== undefined && sandbox.kind !== 'none' && sandbox.evidence.repoStateAfter ? (
        <Pre label="repository state after the answer and the scorer's look-ups" copy="repository state after">
          {sandbox.evidence.repoStateAfter}
        </Pre>
      ) : null}
      {fx.setupLog ? (
        <details>
          <summary className="cursor-pointer text-sm text-slate-600">Setup log</summary>
          <Pre copy="setup log">{fx.setupLog}</Pre>
        </details>
      ) : null}
    </Section>
  );
}
