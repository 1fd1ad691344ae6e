# Makes _assets/click/composite-c02-ports.bundle: run from the root of a clone of click-bp05's bundle (branches
# main, 8.1.x, 8.0.x, 7.x), with this repository at $GITBENCH. The first versions are click-bp05's ports of
# 0ef55fda as upstream wrote it, without the correction's test; the approved ones its reference ports.
set -euo pipefail
. "$GITBENCH/scripts/hard-ports/click-bp05/made-up-port.sh"
first() { # line patch committer-date
  git checkout -q -f --detach "$1" && git apply --index "$2"
  /usr/bin/python3 -c "
p = 'tests/test_shell_completion.py'
t = open(p).read()
open(p, 'w').write(t[: t.index('\n\ndef test_nested_group')].rstrip('\n') + '\n')"
  git add tests/test_shell_completion.py
  GIT_COMMITTER_DATE="$3" git commit-tree "$(git write-tree)" -p "$1" -m "$msg"
}
approved() { # line patch committer-date
  git read-tree --reset "$1" && git apply --cached "$2"
  GIT_COMMITTER_DATE="$3" git commit-tree "$(git write-tree)" -p "$1" -m "$msg"
}
git update-ref refs/stage/v1-8.1.x "$(first 8.1.x $P/args-from-parent/8.1.x.patch '1731254400 +0100')"
git update-ref refs/stage/v1-8.0.x "$(first 8.0.x $P/args-from-parent/8.0.x.patch '1731258000 +0100')"
git update-ref refs/stage/v2-8.1.x "$(approved 8.1.x $P/8.1.x.patch '1731340800 +0100')"
git update-ref refs/stage/v2-8.0.x "$(approved 8.0.x $P/8.0.x.patch '1731344400 +0100')"
git checkout -q -f main
git bundle create composite-c02-ports.bundle 8.1.x..refs/stage/v1-8.1.x 8.1.x..refs/stage/v2-8.1.x \
  8.0.x..refs/stage/v1-8.0.x 8.0.x..refs/stage/v2-8.0.x
