import { judgeAmbiguous } from '../ref-name-guard';
import { pyStrip } from '../python-text';
import { pyTruthy } from '../result';
import type { ExecRecord } from '../types';
import { KNOWN_ASSERTION_TYPES, isText, probeFor, type Assertion } from './state-assertion-look-ups';

type Outcome = { ok: boolean; detail: string; actual?: string };

// Python's text-mode read turns \r\n and \r into \n.
const universalNewlines = (s: string) => s.replace(/\r\n?/g, '\n');

function existence(record: ExecRecord, want: boolean, what: string): Outcome {
  if (record.exitCode !== 0 && record.exitCode !== 1)
    return { ok: false, detail: `could not test for the ${what} (exit ${record.exitCode})` };
  const exists = record.exitCode === 0;
  return { ok: exists === want, detail: `${what} ${exists ? 'exists' : 'does not exist'}` };
}

/** Whether an assertion holds, compared exactly as upstream compares it, given its look-up's record. */
export function judge(a: Assertion, output: string, record: ExecRecord | undefined): Outcome {
  if (a.type === 'model_output') {
    if ('contains' in a)
      return isText(a.contains) && output.includes(a.contains)
        ? { ok: true, detail: 'answer contains the text' }
        : { ok: false, detail: 'answer does not contain the text' };
    if ('exact' in a)
      return {
        ok: pyStrip(output) === a.exact,
        detail: pyStrip(output) === a.exact ? 'answer is exactly the text' : 'answer is not exactly the text',
        actual: pyStrip(output),
      };
    return {
      ok: pyStrip(output).length > 0,
      detail: pyStrip(output).length > 0 ? 'answer is not empty' : 'answer is empty',
    };
  }
  if (probeFor(a) === null) {
    return {
      ok: false,
      detail:
        typeof a.type === 'string' && a.type in KNOWN_ASSERTION_TYPES
          ? 'assertion is missing a required field'
          : `unknown assertion type ${JSON.stringify(a.type)}`,
    };
  }
  if (!record) return { ok: false, detail: 'no sandbox evidence for this assertion' };
  if (record.timedOut) return { ok: false, detail: 'look-up timed out' };
  switch (a.type) {
    case 'file_exists':
      return existence(record, true, 'file');
    case 'file_not_exists':
      return existence(record, false, 'file');
    case 'dir_exists':
      return existence(record, true, 'directory');
    case 'dir_not_exists':
      return existence(record, false, 'directory');
    case 'file_content': {
      if (record.exitCode !== 0)
        return {
          ok: false,
          detail: record.exitCode === 3 ? 'file does not exist' : `file could not be read (exit ${record.exitCode})`,
        };
      if (record.truncated) return { ok: false, detail: 'file is larger than the sandbox output cap; not compared' };
      const actual = universalNewlines(record.stdout);
      if (isText(a.contains))
        return {
          ok: actual.includes(a.contains),
          detail: actual.includes(a.contains) ? 'file contains the text' : 'file does not contain the text',
          actual,
        };
      if (pyTruthy(a.contains)) {
        const value = pyTruthy(a.value) ? a.value : '';
        const ok = isText(value) && actual.includes(value);
        return { ok, detail: ok ? 'file contains the value' : 'file does not contain the value', actual };
      }
      if (!isText(a.value)) return { ok: false, detail: 'assertion has no text value to compare' };
      const ok = pyStrip(actual) === pyStrip(a.value);
      return { ok, detail: ok ? 'file content matches (ends trimmed)' : 'file content differs', actual };
    }
    case 'file_not_contains': {
      if (record.exitCode === 3) return { ok: true, detail: 'file does not exist' };
      if (record.exitCode !== 0) return { ok: false, detail: `file could not be read (exit ${record.exitCode})` };
      if (record.truncated) return { ok: false, detail: 'file is larger than the sandbox output cap; not searched' };
      if (!isText(a.value)) return { ok: false, detail: 'assertion has no text value' };
      const found = universalNewlines(record.stdout).includes(a.value);
      return { ok: !found, detail: found ? 'file contains the text' : 'file does not contain the text' };
    }
    case 'branch_exists': {
      if (isText(a.in_worktree) && record.exitCode === 3)
        return { ok: false, detail: `worktree ${a.in_worktree} does not exist` };
      const ok = record.stdout.includes(a.name as string);
      return { ok, detail: ok ? 'branch listed' : 'branch not listed', actual: record.stdout };
    }
    case 'git_config': {
      const actual = pyStrip(record.stdout);
      const ok = record.exitCode === 0 && isText(a.value) && actual === a.value;
      return {
        ok,
        detail: record.exitCode === 0 ? (ok ? 'value matches' : 'value differs') : 'key is not set',
        actual,
      };
    }
    case 'git_output': {
      const ambiguous = judgeAmbiguous(record);
      if (ambiguous) return ambiguous;
      if (record.exitCode === 126 || record.exitCode === 127)
        return { ok: false, detail: `command could not be run (exit ${record.exitCode})`, actual: record.stderr };
      const text = record.stdout + record.stderr;
      if ('exact' in a) {
        const ok = isText(a.exact) && pyStrip(text) === a.exact;
        if (!ok && record.truncated)
          return { ok: false, detail: 'output was cut at the sandbox cap; cannot compare', actual: text };
        return {
          ok,
          detail: ok ? 'output is exactly the text (ends trimmed)' : 'output is not exactly the text',
          actual: text,
        };
      }
      if ('contains' in a) {
        const ok = isText(a.contains) && text.includes(a.contains);
        if (!ok && record.truncated)
          return { ok: false, detail: 'output was cut at the sandbox cap before the text appeared', actual: text };
        return { ok, detail: ok ? 'output contains the text' : 'output does not contain the text', actual: text };
      }
      if ('not_contains' in a) {
        if (!isText(a.not_contains)) return { ok: false, detail: 'not_contains is not text' };
        if (record.truncated) return { ok: false, detail: 'output was cut at the sandbox cap; cannot tell' };
        const found = text.includes(a.not_contains);
        return {
          ok: !found,
          detail: found ? 'output contains the text' : 'output does not contain the text',
          actual: text,
        };
      }
      return { ok: record.exitCode === 0, detail: `command exited ${record.exitCode}`, actual: text };
    }
  }
  return { ok: false, detail: `unknown assertion type ${JSON.stringify(a.type)}` };
}
