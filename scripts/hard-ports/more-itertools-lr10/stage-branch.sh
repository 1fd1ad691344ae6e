#!/usr/bin/env bash
# Stages more-itertools-lr10's branch from long-rebase/more-itertools-lr02's bundle (upstream's pull request #737,
# 12 commits on bed08114): commits 1-4 stay as they are on zip_broadcast; commits 5 and 6 (the strict-mode fix and
# its whitespace fix) are made again on commit 2 as a branch `strict-mode`, merged into zip_broadcast after commit 4
# (a real conflict: 3 and 4 rewrote the lines 5 changes); 7-12 are re-created on the merge with their own trees
# (the merge's tree is upstream's tree after commit 6, so every later tree is upstream's too).
# Identities and dates are upstream's; the merge's are Max Smirnov's with a fixed date after commit 6.
# Usage: stage-branch.sh <lr02 bundle> <output bundle>
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
in=$(realpath "$1")
out=$(realpath -m "$2")
# shellcheck source=../remake-commit.sh
. "$here/../remake-commit.sh"
enter_scratch_repo "$in"

c2=fb978f0ef8bbba020bdacc94f53422c266dfa0ef
c4=205b3a489ff3b571c54330c508c74d33d2c2ffe9
c5=adcbcc66b21c216734cb453f3386091327d99ac1
c6=889b5d93bec8fb80b982f485d2e2c30ea9d2a743

# 5 on commit 2: upstream's change with its conflict against 3 and 4 resolved to 2's names.
git checkout -q --detach "$c2"
git apply --index "$here/strict-mode-on-black.patch"
s5=$(remake "$c5" "$(git write-tree)" "$c2")
# 6 drops the trailing whitespace 5 left after `return` (its context names 3's `objects`, so it is made again here).
sed -i 's/^    $//' more_itertools/more.py
git add more_itertools/more.py
s6=$(remake "$c6" "$(git write-tree)" "$s5")

merge=$(GIT_AUTHOR_NAME='Max Smirnov' GIT_AUTHOR_EMAIL=masynchin@gmail.com GIT_AUTHOR_DATE='1690379100 +0300' \
  GIT_COMMITTER_NAME='Max Smirnov' GIT_COMMITTER_EMAIL=masynchin@gmail.com GIT_COMMITTER_DATE='1690379100 +0300' \
  git commit-tree "$c6^{tree}" -p "$c4" -p "$s6" -m "Merge branch 'strict-mode' into zip_broadcast")
tip=$merge
for c in $(git rev-list --reverse "$c6..zip_broadcast"); do
  tip=$(remake "$c" "$c^{tree}" "$tip")
done
git update-ref refs/heads/strict-mode "$s6"
git update-ref refs/heads/zip_broadcast "$tip"
git bundle create -q "$out" main zip_broadcast strict-mode
