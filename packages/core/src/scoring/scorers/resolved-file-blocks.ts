import { FileBlocksError, normalizeFileContent, parseFileBlocks } from '../file-blocks';
import { pyStrip } from '../python-text';
import { check, configError, listForDisplay, verdict } from '../result';
import type { ScoreCheck, Scorer } from '../types';

/**
 * Resolved content of one or more files against `scoring.expected_files` ({name: content}), read as
 * parseFileBlocks reads it. Every expected file must be present with matching content (see
 * normalizeFileContent) and no other file may appear unless `allow_extra_files` is exactly `true`
 * (upstream tests it with `is True`, so `yes` or `1` do not count). Score = share of expected files
 * matched.
 */
export const resolvedFileBlocksScorer: Scorer = {
  type: 'resolved_file_blocks',
  plan: () => null,
  score({ fixture, output }) {
    const raw = fixture.scoring.expected_files;
    if (!raw || typeof raw !== 'object' || Array.isArray(raw) || Object.keys(raw).length === 0) {
      return configError(fixture, 'resolved_file_blocks needs scoring.expected_files, a map of file name to content');
    }
    const expectedFiles = new Map<string, string>();
    for (const [name, content] of Object.entries(raw as Record<string, unknown>)) {
      if (typeof content !== 'string' || pyStrip(name) === '')
        return configError(fixture, `scoring.expected_files.${name} must be a file name with text content`);
      expectedFiles.set(name, content);
    }

    let blocks;
    try {
      blocks = parseFileBlocks(
        output,
        expectedFiles.keys(),
        expectedFiles.size === 1 ? ([...expectedFiles.keys()][0] as string) : null,
      );
    } catch (error) {
      if (!(error instanceof FileBlocksError)) throw error;
      return verdict(false, 0, [check('file blocks', false, `the answer cannot be read as files: ${error.message}`)]);
    }

    const checks: ScoreCheck[] = [];
    const missing: string[] = [];
    let matched = 0;
    for (const [name, content] of expectedFiles) {
      const got = blocks.files.get(name);
      if (got === undefined) {
        missing.push(name);
        checks.push(check(`file ${name}`, false, 'missing from the answer', content));
        continue;
      }
      const want = normalizeFileContent(content);
      const have = normalizeFileContent(got);
      if (want === have) matched++;
      checks.push(
        check(`file ${name}`, want === have, want === have ? 'content matches' : 'content mismatch', want, have),
      );
    }
    const extra = [...blocks.files.keys()].filter((name) => !expectedFiles.has(name)).sort();
    const allowExtra = fixture.scoring.allow_extra_files === true;
    if (extra.length > 0) {
      checks.push(
        check('no extra files', allowExtra, `extra files ${listForDisplay(extra)}${allowExtra ? ' (allowed)' : ''}`),
      );
    }
    if (missing.length > 0) checks.push(check('missing files', false, `missing files ${listForDisplay(missing)}`));
    const passed = matched === expectedFiles.size && (allowExtra || extra.length === 0);
    return verdict(passed, matched / expectedFiles.size, checks);
  },
};
