#!/usr/bin/env bash
# Stages click-lr11's branch: long-rebase/click-lr04's bundle (pull request #2022's first-parent commits re-created
# on their branch point with trees cut to src/, tests/ and LICENSE.rst) with the pull request's real internal merge
# put back. Upstream, 086a2fc7 ("disable double dash is possible") merged a parallel attempt, 6c67f276 ("ddd",
# made on the branch point), into the branch after fbbef11d; lr04 kept that merge as the plain commit of what it
# changed. Here "ddd" is re-created on the branch point (its tree cut the same way), the merge gets its two parents
# back (its tree is lr04's commit 2, the merge's own tree cut), and lr04's commits 3-6 are re-created on it with
# their own trees. Identities, dates and messages are upstream's.
# Usage: stage-branch.sh <lr04 bundle> <click repository with 6c67f276 and 086a2fc7> <output bundle>
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
in=$(realpath "$1")
upstream=$(realpath "$2")
out=$(realpath -m "$3")
# shellcheck source=../remake-commit.sh
. "$here/../remake-commit.sh"
enter_scratch_repo "$in"
objects=$(git -C "$upstream" rev-parse --git-path objects)
echo "$(cd "$upstream" && realpath "$objects")" > .git/objects/info/alternates

ddd=6c67f27657573a36b2ed52c8dc9a065eba35c49f
merge=086a2fc78505be3a13cf28b18b1832ffeefc2a2a
base=$(git rev-parse 'disable-double-dash~6')
first=$(git rev-parse 'disable-double-dash~5')
second=$(git rev-parse 'disable-double-dash~4')

# The tree of "ddd" cut as lr04 cuts its trees.
export GIT_INDEX_FILE=$work/cut.index
git read-tree --empty
git read-tree --prefix=src/ "$ddd:src"
git read-tree --prefix=tests/ "$ddd:tests"
git update-index --add --cacheinfo "100644,$(git rev-parse "$ddd:LICENSE.rst"),LICENSE.rst"
ddd_tree=$(git write-tree)
unset GIT_INDEX_FILE

side=$(remake "$ddd" "$ddd_tree" "$base")
tip=$(remake "$merge" "$second^{tree}" "$first" "$side")
for c in $(git rev-list --reverse 'disable-double-dash~4..disable-double-dash'); do
  tip=$(remake "$c" "$c^{tree}" "$tip")
done
git update-ref refs/heads/disable-double-dash "$tip"
# The bundle must hold every object itself, not lean on the alternate.
git repack -a -d -q
rm .git/objects/info/alternates
git bundle create -q "$out" main disable-double-dash
