#!/usr/bin/env bash
# The Python of the repository, checked as Python: every .py file git tracks or would track byte-compiled (no .pyc
# written), linted with pyflakes and held to 120 columns with pycodestyle, and the pytest files under packages/*/test
# and apps/*/test run on Debian's python3 (the interpreter the sandbox image has), with a JUnit report for npm test's
# last line.
# Usage: python-check.sh <report.xml>. Every part runs; the exit status is non-zero if any failed.
set -uo pipefail
cd "$(dirname "$0")/.."
report="${1:?usage: python-check.sh <report.xml>}"
export PYTHONDONTWRITEBYTECODE=1
status=0
mapfile -t files < <(git ls-files --cached --others --exclude-standard '*.py')
mapfile -t tests < <(git ls-files --cached --others --exclude-standard 'packages/*/test/**test_*.py' 'apps/*/test/**test_*.py')
/usr/bin/python3 -c '
import sys
for f in sys.argv[1:]:
    with open(f, "rb") as h:
        compile(h.read(), f, "exec")
' "${files[@]}" || status=1
pyflakes3 "${files[@]}" || status=1
# Lines of at most 120 characters, as in the TypeScript (eslint's max-len), the fixtures' graders and the text sent
# into a sandbox included (rewrapped, not rewritten: each parses to the same syntax tree as before), and the
# sandbox's runner too (its bytes name the sandbox image, which is rebuilt whenever they change).
pycodestyle --select=E501 --max-line-length=120 "${files[@]}" || status=1
/usr/bin/python3 -m pytest -q -p no:cacheprovider --junitxml="$report" "${tests[@]}" || status=1
exit "$status"
