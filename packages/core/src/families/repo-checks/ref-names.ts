import { refNamesIn } from '../../scoring/ref-name-guard';
import type { RepoCheck } from './config';

/**
 * The names a check gives, checked before its look-up by the scorers' one ref-name guard
 * (scoring/ref-name-guard.ts): every branch or tag name must read as one ref, or the check fails.
 */

/** The revisions a check gives, as written; tag_message reads refs/tags/<tag> by its full name. */
function revisionsOf(check: RepoCheck): string[] {
  switch (check.type) {
    case 'tests_pass':
    case 'tests_fail':
    case 'no_conflict_markers':
    case 'tree_equals':
    case 'file_at':
    case 'note':
      return [check.rev];
    case 'tests_pass_each':
    case 'commits_preserved':
    case 'commit_count':
      return [check.range];
    case 'linear_onto':
      return [check.branch, check.onto];
    case 'ref_equals':
    case 'ref_exists':
      return [check.ref];
    default:
      return [];
  }
}

/** The ref names in a check's revisions (each side of a range, without suffixes; HEAD and ids left out). */
export function refNamesOf(check: RepoCheck): string[] {
  return refNamesIn(revisionsOf(check));
}
