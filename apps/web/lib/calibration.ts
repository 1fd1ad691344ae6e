import {
  calibrationItemOf,
  summarizeCalibration,
  type CalibrationItem,
  type CalibrationRecord,
  type CalibrationSummary,
} from '@gitbench/core';
import type { SuiteCalibration } from '@gitbench/engine';

/**
 * What the pages show of a suite's calibration record (calibration.json at its root): figures its authors
 * measured by playing the tasks, or a saved export of campaigns, with the method that says which. They are
 * kept apart from the campaigns' item analysis, which counts only scored attempts of model targets.
 */

/** A suite's record as the suite loader read it, named by the suite's directory. */
export interface SuiteRecord {
  suite: string;
  calibration: SuiteCalibration;
}

export interface FixtureCalibration {
  suite: string;
  /** The record's method in one line (its first sentence), and whole. */
  methodLine: string | null;
  method: string | null;
  obtainedAt: string | null;
  item: CalibrationItem;
}

/** The method's first sentence: the record's own summary of how its figures were obtained. */
export function methodLine(method: string | undefined): string | null {
  if (!method) return null;
  return /^.+?[.!?](?=\s|$)/s.exec(method.trim())?.[0] ?? method.trim();
}

/** The fixture's entry in every suite record that lists it. */
export function fixtureCalibrations(
  records: readonly SuiteRecord[],
  domain: string,
  fixtureId: string,
): FixtureCalibration[] {
  return records.flatMap(({ suite, calibration }) => {
    const record: CalibrationRecord | null = calibration && 'record' in calibration ? calibration.record : null;
    const item = record ? calibrationItemOf(record, domain, fixtureId) : null;
    if (!record || !item) return [];
    return [
      {
        suite,
        methodLine: methodLine(record.method),
        method: record.method ?? null,
        obtainedAt: record.obtainedAt ?? null,
        item,
      },
    ];
  });
}

export type SuiteCalibrationLine =
  ({ kind: 'record'; methodLine: string | null } & CalibrationSummary) | { kind: 'unreadable'; error: string } | null;

export function suiteCalibrationLine(r: SuiteRecord | undefined): SuiteCalibrationLine {
  const read = r?.calibration;
  if (!read) return null;
  if ('error' in read) return { kind: 'unreadable', error: read.error };
  return { kind: 'record', methodLine: methodLine(read.record.method), ...summarizeCalibration(read.record) };
}
