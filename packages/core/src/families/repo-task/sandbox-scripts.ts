/**
 * What a repository task's scorer shares with the two programs it runs in the sandbox after the agent
 * stopped, grader-runner.py and outputs-listing.py (their text: the *-py.generated.ts modules).
 */

/** Marks the grader runner's one line of output among whatever the grader printed. */
export const VERDICT_MARK = '@@GITBENCH_VERDICT ';

/** Largest file whose content the outputs listing carries (text shown, images drawn on the attempt page). */
export const OUTPUT_PREVIEW_BYTES = 192 * 1024;
