#!/usr/bin/env bash
# The whole test suite from a fresh clone: set-up, typecheck, lint, import directions, unit tests,
# integration tests on real services, browser tests in Chromium. Every step runs even if an earlier
# one failed; the last line sums the test counts of every runner.
set -uo pipefail
cd "$(dirname "$0")/.."
. scripts/lib.sh

bash scripts/setup.sh || die "set-up failed"
. "$GITBENCH_STATE_DIR/env"
GITBENCH_UPSTREAM_DIR="$(upstream_dir)" ||
  die "the upstream sample data (../shared/gitbench-upstream: fixtures and results the tests compare against) is not beside this checkout; set GITBENCH_UPSTREAM_DIR"
export GITBENCH_UPSTREAM_DIR
if [ ! -x "${CHROMIUM_PATH:-/usr/bin/chromium}" ]; then apt_install "browser tests" chromium; fi
# Upstream's own scorer runs beside ours in the agreement tests: Debian's python3 with PyYAML.
if ! /usr/bin/python3 -c 'import yaml' 2>/dev/null; then apt_install "the comparison with upstream's scorer" python3 python3-yaml; fi
# The Python files are linted with pyflakes and pycodestyle and tested with pytest, all Debian's
# (scripts/python-check.sh).
if ! command -v pyflakes3 >/dev/null || ! command -v pycodestyle >/dev/null ||
  ! /usr/bin/python3 -c 'import pytest' 2>/dev/null; then
  apt_install "the Python checks" pyflakes3 pycodestyle python3-pytest
fi
# Tests start python3 hundreds of times (every repository-state dump on the host runs it). A version
# manager's shim first on PATH (pyenv here) costs about a second per start on a busy machine: the
# upstream-repos checks took 374 s and 1771 s instead of minutes. Debian's python3 goes first.
mkdir -p "$GITBENCH_STATE_DIR/bin" && ln -sf /usr/bin/python3 "$GITBENCH_STATE_DIR/bin/python3"
export PATH="$GITBENCH_STATE_DIR/bin:$PATH"

results=test-results
rm -rf "$results"; mkdir -p "$results"
. scripts/lib/test-steps.sh

step typecheck npx turbo run typecheck --output-logs=errors-only
step lint npx eslint --max-warnings 0 .
# The TypeScript and JavaScript code only (package.json names the folders; .prettierignore leaves out the
# generated modules and the fixtures), at 120 columns: layout is Prettier's, not a reviewer's.
step format npm run --silent format:check
step import-directions npx depcruise apps packages --config .dependency-cruiser.cjs --output-type err
step unit vitest_reports unit --project unit
step python bash scripts/python-check.sh "$results/python.xml"
step integration vitest_reports integration --project integration
step web-build npm run build -w @gitbench/web --silent
step e2e npx playwright test

if [ "${#failed_steps[@]}" -gt 0 ]; then say "failed steps: ${failed_steps[*]}"; fi
# The last line: tests summed over every runner, with every error outside a test (a file that failed to
# load, a hook, an unhandled rejection, Playwright's global set-up) and every failed step counted as a
# failure, and skips shown.
node --import tsx scripts/test-counts.ts "$results"
counted=$?
[ "${#failed_steps[@]}" -eq 0 ] && [ "$counted" -eq 0 ]
