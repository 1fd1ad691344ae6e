# Builds history-surgery/cachetools-h16's two held-out test overlays from the suite's cachetools bundle:
#   cachetools-h16-a.tar.gz, run at the first commit of the split: upstream's tests/ of c17b0e3 with the
#     deprecation's test hunks taken out again (deprecation.patch, the part of c17b0e3 that deprecates
#     cache(self) returning None), plus test_cachedmethod_nocache_silent.py, written by hand;
#   cachetools-h16-b.tar.gz, run at the second: upstream's tests/ of c17b0e3 as they are.
# Run from the repository root: bash scripts/hard-ports/cachetools-h16/make-tests.sh
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../held-out-tests.sh"
held_out_checkout _assets/cachetools/history-v7.0.1.bundle c17b0e3ded92347d82165cfa011e9ca1828ac285
held_out_archive cachetools-h16-b.tar.gz
git -C "$scratch" apply -R --index --include='tests/*' "$here/deprecation.patch"
cp "$here/test_cachedmethod_nocache_silent.py" "$scratch/tests/"
held_out_archive cachetools-h16-a.tar.gz
