import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import type { Fixture } from '../../src/fixtures/types';
import { structuredToText } from '../../src/fixtures/output-contract';
import { evidenceFromRecordedPrompt, extractCommands, getScorer } from '../../src/scoring';

/**
 * Re-score upstream's recorded answers and compare with upstream's `passed`. Text-only scorers
 * must agree on every answer; bisect and reflog answers are scored against the hashes upstream
 * showed the model (rebuilt from the recorded prompt); state assertions need a sandbox, so here
 * only their plans are checked.
 */

import { UPSTREAM_ROOT } from '../fixtures/upstream-data';

const UPSTREAM = `${UPSTREAM_ROOT}/`;

interface RecordedScore {
  fixture_id: string;
  passed: boolean;
  model_output: string;
  raw_structured_output?: string | null;
  transcript?: { role: string; content: string }[];
}
interface RecordedRun {
  output_mode: string;
  results: { benchmark: string; scores: RecordedScore[] }[];
}

function loadFixture(benchmark: string, id: string): Fixture {
  const path = `${UPSTREAM}fixtures/${benchmark}/${id}.yaml`;
  const raw = parse(readFileSync(path, 'utf8')) as Record<string, unknown>;
  return {
    domain: benchmark,
    id: String(raw.id),
    description: String(raw.description ?? ''),
    difficulty: (raw.difficulty as Fixture['difficulty']) ?? 'medium',
    tags: (raw.tags as string[]) ?? [],
    setup: (raw.setup as string[]) ?? [],
    prompt: String(raw.prompt),
    expected: String(raw.expected ?? ''),
    scoring: raw.scoring as Fixture['scoring'],
    ...(raw.output_schema !== undefined ? { output_schema: raw.output_schema as Fixture['output_schema'] } : {}),
    sourcePath: `${benchmark}/${id}.yaml`,
  };
}

// Missing data fails the test file, naming where it was looked for; it is never a skip.
if (!existsSync(`${UPSTREAM}results`))
  throw new Error(`upstream result files not found in ${UPSTREAM}results: set GITBENCH_UPSTREAM_DIR`);
const runs = readdirSync(`${UPSTREAM}results`)
  .filter((name) => name.endsWith('.json'))
  .map((name) => ({ name, run: JSON.parse(readFileSync(`${UPSTREAM}results/${name}`, 'utf8')) as RecordedRun }));
if (runs.length === 0) throw new Error(`no upstream result files (*.json) in ${UPSTREAM}results`);

describe('agreement with upstream verdicts', () => {
  const tally = new Map<string, { compared: number; agree: number; planned: number; skipped: number }>();
  const bump = (type: string, key: 'compared' | 'agree' | 'planned' | 'skipped') => {
    const row = tally.get(type) ?? { compared: 0, agree: 0, planned: 0, skipped: 0 };
    row[key]++;
    tally.set(type, row);
  };
  const disagreements: string[] = [];

  for (const { name, run } of runs) {
    it(`re-scores ${name}`, () => {
      for (const { benchmark, scores } of run.results) {
        for (const recorded of scores) {
          const fixture = loadFixture(benchmark, recorded.fixture_id);
          const type = fixture.scoring.type;
          const scorer = getScorer(type);
          const output = recorded.model_output;
          const where = `${run.output_mode} ${benchmark}/${recorded.fixture_id} (${type})`;

          // In json_schema mode upstream stored the text it scored; it must be what our
          // structured-to-text conversion makes of the raw structured answer.
          if (run.output_mode === 'json_schema' && recorded.raw_structured_output) {
            const text = structuredToText(fixture, recorded.raw_structured_output);
            expect(text.ok ? text.text : text.error, where).toBe(output);
          }

          if (type === 'llm_judge') {
            expect(scorer.score({ fixture, output }).needsJudge).toBe(true);
            bump(type, 'skipped');
            continue;
          }
          if (type === 'state_assertions') {
            const plan = scorer.plan(fixture, output);
            const extraction = extractCommands(output);
            expect(plan?.answerCommands, where).toEqual(extraction.commands);
            expect(extraction.ok, where).toBe(true);
            const assertions = (fixture.scoring.expected_state as { assertions: { type: string }[] }).assertions;
            expect(plan?.probes.length, where).toBe(assertions.filter((a) => a.type !== 'model_output').length);
            bump(type, 'planned');
            continue;
          }
          let evidence;
          if (scorer.plan(fixture, output) !== null) {
            const prompt = recorded.transcript?.find((m) => m.role === 'user')?.content ?? '';
            evidence = evidenceFromRecordedPrompt(fixture, prompt) ?? undefined;
            expect(evidence, `${where}: evidence from the recorded prompt`).toBeDefined();
          }
          const result = scorer.score({ fixture, output, evidence });
          bump(type, 'compared');
          if (result.passed === recorded.passed) bump(type, 'agree');
          else
            disagreements.push(
              `${where}: upstream ${recorded.passed}, ours ${result.passed}: ${JSON.stringify(result.checks)}`,
            );
        }
      }
    });
  }

  it('agrees on every compared answer', () => {
    const rows = [...tally].map(
      ([type, row]) =>
        `${type.padEnd(22)} compared ${row.compared} agree ${row.agree} planned ${row.planned} skipped ${row.skipped}`,
    );
    console.log(`agreement by scoring type:\n${rows.join('\n')}`);
    expect(disagreements).toEqual([]);
    const compared = [...tally.values()].reduce((n, row) => n + row.compared, 0);
    expect(compared).toBeGreaterThan(90);
  });
});
