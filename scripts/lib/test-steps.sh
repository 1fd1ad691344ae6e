# The steps of scripts/test.sh. Sourced, never run; scripts/test/test-counts.test.ts runs tiny failing
# suites through these same functions. Needs $results (the reports' directory) and say from lib.sh.

failed_steps=()
# Where this file is, resolved now: the steps may run from another directory.
test_steps_dir="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
# Runs one step, whatever happened before, and records its exit status in $results/steps ("name
# status" a line): scripts/test-counts.ts counts a failed step on the last line, tests or no tests.
step() {
  local name="$1"; shift
  say "── $name"
  local t0=$SECONDS status=0
  "$@" || status=$?
  printf '%s %s\n' "$name" "$status" >> "$results/steps"
  if [ "$status" -eq 0 ]; then say "   $name ok ($((SECONDS - t0)) s)"; else failed_steps+=("$name"); say "   $name FAILED ($((SECONDS - t0)) s)"; fi
}

# vitest with the two reports the last line is counted from: the tests ($label.json) and the errors
# outside any test ($label-outside.json, which vitest's JSON report leaves out).
vitest_reports() {
  local label="$1"; shift
  GITBENCH_OUTSIDE_ERRORS="$results/$label-outside.json" npx vitest run "$@" \
    --reporter=default --reporter=json --outputFile.json="$results/$label.json" \
    --reporter="$test_steps_dir/outside-errors-reporter.ts"
}
