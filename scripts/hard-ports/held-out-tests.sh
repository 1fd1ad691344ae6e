# Shared by the held-out test overlays of the split tasks (history-surgery/cachetools-h16, more-itertools-h17).
# Sourced, never run, from the repository root: each task's make-tests.sh calls held_out_checkout, then edits
# "$scratch/tests" and calls held_out_archive once per overlay.
set -euo pipefail
suite=$(pwd)/fixtures/hard
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
# Fixed identities and dates: git archive takes every file's time from the commit, so the bytes never change.
export GIT_AUTHOR_NAME=gitbench GIT_AUTHOR_EMAIL=bench@example.com GIT_AUTHOR_DATE='946684800 +0000'
export GIT_COMMITTER_NAME=gitbench GIT_COMMITTER_EMAIL=bench@example.com GIT_COMMITTER_DATE='946684800 +0000'

held_out_checkout() { # <bundle under fixtures/hard> <commit> : the commit checked out in "$scratch"
  git -C "$scratch" init -q
  git -C "$scratch" fetch -q "$suite/$1" refs/heads/main:refs/heads/main
  git -C "$scratch" checkout -q "$2"
}

held_out_archive() { # <asset name under _assets/tests> : the index's tests/ as a .tar.gz
  local tree holder
  git -C "$scratch" add tests
  tree=$(git -C "$scratch" write-tree --prefix=tests/)
  holder=$(echo 'pinned tests' | git -C "$scratch" commit-tree "$tree")
  git -C "$scratch" archive --format=tar.gz "$holder" > "$suite/_assets/tests/$1"
}
