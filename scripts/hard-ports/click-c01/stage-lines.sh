set -euo pipefail
# Run from the root of a clone of the 8.2.1 history (tags 7.x and 8.0.x deleted), with this repository at $GITBENCH.
. "$GITBENCH/scripts/hard-ports/click-bp05/made-up-port.sh"
port() { # branch tag patch testfile date trailer
  git checkout -q -B "$1" "$2"
  git apply --index "$3"
  /usr/bin/python3 - "$4" <<'PY'
import sys
p = sys.argv[1]
t = open(p).read()
i = t.index("\n\ndef test_nested_group")
open(p, "w").write(t[:i].rstrip("\n") + "\n")
PY
  git add "$4"
  GIT_COMMITTER_DATE="$5" git commit -q -m "$msg$6"
}
port 8.1.x 8.1.8 $P/args-from-parent/8.1.x.patch tests/test_shell_completion.py '1731254400 +0100' '

(cherry picked from commit 0ef55fda47bb3d0dece21197d81d8d72a4250e73)'
port 8.0.x 8.0.4 $P/8.0.x.patch tests/test_shell_completion.py '1731340800 +0100' ''
port 7.x 7.1.2 $P/args-from-parent/7.x.patch tests/test_bashcomplete.py '1731427200 +0100' ''
git checkout -q main
