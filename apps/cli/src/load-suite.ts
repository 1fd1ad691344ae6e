import { loadSuiteDir, SuiteDirError, type LoadedSuiteDir } from '@gitbench/engine';
import type { FixtureError } from '@gitbench/core';
import { UsageError } from './args';

/** The engine's suite loader; a missing directory is the caller's mistake (a usage error). */
export async function loadSuite(dir: string): Promise<LoadedSuiteDir> {
  try {
    return await loadSuiteDir(dir);
  } catch (err) {
    if (err instanceof SuiteDirError) throw new UsageError(err.message);
    throw err;
  }
}

export function formatFixtureError(e: FixtureError): string {
  return `${e.file}:${e.line}: ${e.field || '(file)'}: ${e.message}`;
}
