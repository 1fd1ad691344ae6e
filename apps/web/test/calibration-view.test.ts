import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { readSuiteCalibration } from '@gitbench/engine';
import { FixtureCalibrationSection } from '../components/fixture/fixture-calibration';
import { SuiteCalibrationNote } from '../components/suite-calibration-note';
import { fixtureCalibrations, methodLine, suiteCalibrationLine, type SuiteRecord } from '../lib/calibration';
import { renderedText } from './support/rendered-text';

// The fixture and suite pages' calibration parts as a reader sees them, over the committed record of
// fixtures/hard (read by the suite loader, as the pages read it).

const text = renderedText;

async function hardRecords(): Promise<SuiteRecord[]> {
  const calibration = await readSuiteCalibration(join(import.meta.dirname, '../../../fixtures/hard'));
  return [{ suite: 'fixtures/hard', calibration }];
}

const fixturePart = (records: SuiteRecord[], domain: string, id: string) =>
  text(
    renderToStaticMarkup(
      createElement(FixtureCalibrationSection, { calibrations: fixtureCalibrations(records, domain, id) }),
    ),
  );

describe("a fixture page's calibration record", () => {
  it('shows trials passed of run, each trial with its steps and wall time, labelled as calibration', async () => {
    const records = await hardRecords();
    const shown = fixturePart(records, 'semantic-merge', 'marshmallow-sm21');
    expect(shown).toContain("Calibration, not a model's result: figures from the suite's calibration.json");
    expect(shown).toContain('fixtures/hard : 2 of 3 calibration trials passed (figures of 2026-11-29)');
    // The three trials in order: A passed (15 steps, 117 s), B failed (8, 66 s), C passed (19, 129 s).
    expect(shown).toMatch(/1 2026-11-29 A pass 15 1 min 57 s stop 44/);
    expect(shown).toMatch(/2 2026-11-29 B fail 8 66\.0 s stop 44/);
    expect(shown).toMatch(/3 2026-11-29 C pass 19 2 min 9 s stop 44/);
    // The method in one line, and whole behind a disclosure.
    const read = records[0]!.calibration;
    const line = methodLine(read && 'record' in read ? read.record.method : undefined);
    expect(line).toBe(
      "Calibration, not a model's result: each trial is one agent-mode attempt played by a helper acting as a " +
        'strong model through the manual model endpoint.',
    );
    expect(shown).toContain(`${line} Trial`);
    expect(shown).toContain('How the figures were obtained');
  });

  it('says so where the record lists a fixture with no trial; nothing where no record lists it', async () => {
    // The committed record has a trial of every fixture, so one without is made from it: b02's trials dropped.
    const [hard] = await hardRecords();
    const read = structuredClone(hard!.calibration);
    if (!read || !('record' in read)) throw new Error('fixtures/hard/calibration.json did not load');
    const b02 = read.record.items.find((i) => i.domain === 'bisection' && i.fixtureId === 'b02')!;
    Object.assign(b02, { targets: 0, passRate: { numerator: 0, denominator: 0 }, trials: [] });
    const records = [{ suite: 'fixtures/hard', calibration: read }];
    expect(fixturePart(records, 'bisection', 'b02')).toContain(
      'fixtures/hard : no calibration trial of this fixture is recorded.',
    );
    expect(fixturePart(records, 'bisection', 'no-such')).toBe('');
    expect(fixturePart([{ suite: 'fixtures', calibration: null }], 'bisection', 'b02')).toBe('');
  });
});

describe("a suite page's calibration line", () => {
  it("sums the record: fixtures calibrated, trials passed of run, the method's line", async () => {
    // The committed record grows with every calibration, so its figures are counted here from the file itself.
    const raw = JSON.parse(
      await readFile(join(import.meta.dirname, '../../../fixtures/hard/calibration.json'), 'utf8'),
    ) as { items: { passRate: { denominator: number }; trials: { passed: boolean }[] }[] };
    const trials = raw.items.flatMap((i) => i.trials);
    const counted = {
      listed: raw.items.length,
      measured: raw.items.filter((i) => i.passRate.denominator > 0).length,
      trialsRun: trials.length,
      trialsPassed: trials.filter((t) => t.passed).length,
    };
    expect(counted.trialsRun).toBeGreaterThan(100);
    const line = suiteCalibrationLine((await hardRecords())[0]);
    expect(line).toMatchObject({ kind: 'record', ...counted });
    const shown = text(renderToStaticMarkup(createElement(SuiteCalibrationNote, { line })));
    expect(shown).toMatch(
      new RegExp(
        "^Calibration record \\(calibration\\.json, not a model's result, counted in no figure here\\): " +
          `${counted.measured} of ${counted.listed} fixtures calibrated; ` +
          `${counted.trialsPassed} of ${counted.trialsRun} calibration trials passed\\. ` +
          "Calibration, not a model's result: ",
      ),
    );
  });

  it('names an unreadable record, and says nothing for a suite without one', () => {
    const broken = suiteCalibrationLine({ suite: 's', calibration: { file: 's/calibration.json', error: 'bad' } });
    expect(text(renderToStaticMarkup(createElement(SuiteCalibrationNote, { line: broken })))).toBe(
      'Its calibration record cannot be read: bad',
    );
    expect(suiteCalibrationLine({ suite: 's', calibration: null })).toBeNull();
    expect(suiteCalibrationLine(undefined)).toBeNull();
  });
});
