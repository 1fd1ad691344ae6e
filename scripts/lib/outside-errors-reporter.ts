/**
 * A vitest reporter for `npm test`'s last line: it writes every error that happened outside a test to
 * the file named by GITBENCH_OUTSIDE_ERRORS. Vitest's JSON report leaves them out: a file that failed
 * to load, a beforeAll or afterAll that threw (its tests reported skipped or passed) and an unhandled
 * error or rejection (reported nowhere) would each leave the count at "0 failed" while vitest exits 1.
 */
import { writeFileSync } from 'node:fs';
import type { Reporter, TestModule } from 'vitest/node';
import type { OutsideErrors } from './test-counts';

interface Failure {
  message?: string;
}

const firstLine = (e: Failure) =>
  (e.message ?? '').trim().split('\n')[0]!.slice(0, 200) || 'an error without a message';

export default class OutsideErrorsReporter implements Reporter {
  onTestRunEnd(modules: ReadonlyArray<TestModule>, unhandled: ReadonlyArray<Failure>, reason: string): void {
    const file = process.env['GITBENCH_OUTSIDE_ERRORS'];
    if (!file) throw new Error('GITBENCH_OUTSIDE_ERRORS must name the file this reporter writes');
    const errors: OutsideErrors['errors'] = [];
    for (const m of modules) {
      for (const e of m.errors()) errors.push({ where: m.moduleId, kind: 'file', message: firstLine(e) });
      for (const s of m.children.allSuites()) {
        for (const e of s.errors())
          errors.push({ where: `${m.moduleId} > ${s.fullName}`, kind: 'suite', message: firstLine(e) });
      }
    }
    for (const e of unhandled) errors.push({ where: 'the run', kind: 'unhandled', message: firstLine(e) });
    const report: OutsideErrors = { reason, errors };
    writeFileSync(file, `${JSON.stringify(report, null, 2)}\n`);
  }
}
