import type { AttemptEvidence, AttemptSandbox } from '@gitbench/core';
import { Section } from '@/components/empty-state';
import { Diff, JsonBlock, Pre } from '@/components/evidence';
import { FamilyEvidence } from '@/components/family-evidence';
import { SandboxEvidenceView } from '@/components/sandbox-evidence';
import type { AttemptRecord } from '@/lib/queries/attempt';
import { ScorerEvidence } from './scorer-evidence';

function OutputVsExpected({ ev, expected }: { ev: AttemptEvidence | null; expected: unknown }) {
  return (
    <Section title="Model output vs expected" id="output">
      <div className="grid gap-3 lg:grid-cols-2">
        <div>
          <div className="text-xs font-medium text-slate-500">Model output</div>
          <Pre label="model output" copy={ev?.output ? 'model output' : undefined}>
            {ev?.output ?? '(no output)'}
          </Pre>
        </div>
        <div>
          <div className="text-xs font-medium text-slate-500">Expected</div>
          <Pre label="expected" copy={(ev?.expected ?? expected) ? 'expected output' : undefined}>
            {ev?.expected ?? String(expected ?? '(not recorded)')}
          </Pre>
        </div>
      </div>
      <Diff expected={ev?.expected ?? String(expected ?? '')} actual={ev?.output ?? ''} />
    </Section>
  );
}

function ScoreSection({ a, ev }: { a: AttemptRecord; ev: AttemptEvidence | null }) {
  const judged = a.judgeResults.map((j) => ({
    judgeConfigHash: j.judgeConfigHash,
    aggregateScore: j.aggregateScore,
    passed: j.passed,
    cached: j.cached,
    members: j.members,
  }));
  return (
    <Section title="Score and scorer evidence" id="scorer">
      <p className="text-sm text-slate-700">
        Scoring: <code>{a.fixtureSnapshot.scoringType}</code> ·{' '}
        {a.passed === null ? 'no verdict' : a.passed ? 'passed' : 'failed'}
        {a.score !== null ? ` · score ${a.score.toFixed(3)}` : ''}
      </p>
      <ScorerEvidence evidence={ev} />
      {judged.length > 0 ? (
        <div>
          <h3 className="text-sm font-medium">Judge results</h3>
          <JsonBlock value={judged} />
        </div>
      ) : null}
    </Section>
  );
}

/**
 * The latest try's prompt, answer against the expected one, family evidence, score and sandbox commands.
 * `agentSandboxElsewhere`: an agent ran its commands as the trajectory's steps, not as an answer's sandbox.
 */
export function TryEvidence({
  a,
  ev,
  sandbox,
  agentSandboxElsewhere,
}: {
  a: AttemptRecord;
  ev: AttemptEvidence | null;
  sandbox: AttemptSandbox | null;
  agentSandboxElsewhere: boolean;
}) {
  const def = (a.fixtureSnapshot.definition ?? {}) as Record<string, unknown>;
  return (
    <>
      <Section title="Rendered prompt" id="prompt">
        <Pre label="rendered prompt" copy={ev?.prompt ? 'rendered prompt' : undefined}>
          {ev?.prompt ?? 'Not recorded.'}
        </Pre>
      </Section>
      <OutputVsExpected ev={ev} expected={def.expected} />
      {ev?.origin === 'gitbench' && ev.scoring?.family ? (
        <Section title="Task family evidence" id="family">
          <FamilyEvidence evidence={ev} />
        </Section>
      ) : null}
      <ScoreSection a={a} ev={ev} />
      <Section title="Sandbox commands and output" id="sandbox">
        {agentSandboxElsewhere ? (
          <p className="text-sm text-slate-600" data-testid="agent-sandbox">
            The agent ran its commands in this attempt&apos;s sandbox: each one, with its output and exit code, is a
            step of the trajectory above.
          </p>
        ) : (
          <SandboxEvidenceView sandbox={sandbox} />
        )}
      </Section>
    </>
  );
}
