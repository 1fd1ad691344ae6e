set -euo pipefail
# Run from the root of a clone of the 8.2.1 history (tags 7.x and 8.0.x deleted), with this repository at $GITBENCH.
# Each line gets an earlier real backport first (upstream's fde47b4b, a stream and progress bar fix, ported by hand to
# 7.x), then the made-up port of 0ef55fda under a subject of its own per line and without a `cherry picked from`
# trailer, so that neither `git branch -v`, subjects nor trailers point at the bisection's answer.
. "$GITBENCH/scripts/hard-ports/click-bp05/made-up-port.sh"
earlier=fde47b4b4f978f179b9dff34583cb2b99021f482
earlier() { # branch tag date
  git checkout -q -B "$1" "$2"
  if [ "$1" = 7.x ]; then
    sed -i 's/^            self._stream.write("")$/            self._stream.write(b"")/' src/click/_compat.py
    sed -i 's/^            if new_width < old_width:$/            if new_width < old_width and self.max_width is not None:/' \
      src/click/_termui_impl.py
    git add src/click/_compat.py src/click/_termui_impl.py
  else
    git diff "$earlier~" "$earlier" -- src | git apply --index
  fi
  GIT_AUTHOR_NAME="$(git log -1 --format=%an "$earlier")" GIT_AUTHOR_EMAIL="$(git log -1 --format=%ae "$earlier")" \
    GIT_AUTHOR_DATE="$(git log -1 --format=%ad --date=raw "$earlier")" GIT_COMMITTER_DATE="$3" \
    git commit -q -m "$(git log -1 --format=%s "$earlier")"
}
port() { # branch patch testfile date subject
  git apply --index "$2"
  /usr/bin/python3 - "$3" <<'PY'
import sys
p = sys.argv[1]
t = open(p).read()
i = t.index("\n\ndef test_nested_group")
open(p, "w").write(t[:i].rstrip("\n") + "\n")
PY
  git add "$3"
  GIT_COMMITTER_DATE="$4" git commit -q -m "$5"
}
earlier 8.1.x 8.1.8 '1735030800 +0100'
port 8.1.x $P/args-from-parent/8.1.x.patch tests/test_shell_completion.py '1735117200 +0100' \
  'Backport: fix ResourceWarning from unclosed contexts in completion'
earlier 8.0.x 8.0.4 '1735117200 +0100'
port 8.0.x $P/8.0.x.patch tests/test_shell_completion.py '1735203600 +0100' \
  'Completion: close the sub-contexts it makes (from 8.2)'
earlier 7.x 7.1.2 '1735203600 +0100'
port 7.x $P/args-from-parent/7.x.patch tests/test_bashcomplete.py '1735290000 +0100' \
  'bashcomplete: do not leak contexts while resolving (port)'
git checkout -q main
