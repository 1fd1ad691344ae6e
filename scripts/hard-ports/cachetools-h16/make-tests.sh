set -euo pipefail
# Builds history-surgery/cachetools-h16's two held-out test overlays from the suite's cachetools bundle:
#   cachetools-h16-a.tar.gz, run at the first commit of the split: upstream's tests/ of c17b0e3 with the
#     deprecation's test hunks taken out again (deprecation.patch, the part of c17b0e3 that deprecates
#     cache(self) returning None), plus test_cachedmethod_nocache_silent.py, written by hand;
#   cachetools-h16-b.tar.gz, run at the second: upstream's tests/ of c17b0e3 as they are.
# Each is archived from a commit with a fixed date, so the bytes come out the same every time.
# Run from the repository root: bash scripts/hard-ports/cachetools-h16/make-tests.sh
here=$(cd "$(dirname "$0")" && pwd)
suite=$(pwd)/fixtures/hard
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
git -C "$scratch" init -q
git -C "$scratch" fetch -q "$suite/_assets/cachetools/history-v7.0.1.bundle" refs/heads/main:refs/heads/main
git -C "$scratch" checkout -q c17b0e3ded92347d82165cfa011e9ca1828ac285
export GIT_AUTHOR_NAME=gitbench GIT_AUTHOR_EMAIL=bench@example.com GIT_AUTHOR_DATE='946684800 +0000'
export GIT_COMMITTER_NAME=gitbench GIT_COMMITTER_EMAIL=bench@example.com GIT_COMMITTER_DATE='946684800 +0000'
archive() { # <out> : the index's tests/ as a .tar.gz
  local tree holder
  tree=$(git -C "$scratch" write-tree --prefix=tests/)
  holder=$(echo 'pinned tests' | git -C "$scratch" commit-tree "$tree")
  git -C "$scratch" archive --format=tar.gz "$holder" > "$1"
}
archive "$suite/_assets/tests/cachetools-h16-b.tar.gz"
git -C "$scratch" apply -R --index --include='tests/*' "$here/deprecation.patch"
cp "$here/test_cachedmethod_nocache_silent.py" "$scratch/tests/" && git -C "$scratch" add tests
archive "$suite/_assets/tests/cachetools-h16-a.tar.gz"
