# Builds history-surgery/more-itertools-h17's two held-out test overlays from the suite's more-itertools bundle:
#   more-itertools-h17-a.tar.gz, run at the first commit of the split: upstream's tests/ of 1f301094 with
#     TotientTests taken out again (totient.patch, the part of 1f301094 that adds totient() and updates
#     unique_justseen()), plus test_split_stubs.py and test_split_no_totient_yet.py, written by hand;
#   more-itertools-h17-b.tar.gz, run at the second: upstream's tests/ of 1f301094 plus test_split_stubs.py.
# Run from the repository root: bash scripts/hard-ports/more-itertools-h17/make-tests.sh
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../held-out-tests.sh"
held_out_checkout _assets/more-itertools/history-2025-10-09.bundle 1f3010943583822e1c219816717fc00d204b4370
cp "$here/test_split_stubs.py" "$scratch/tests/"
held_out_archive more-itertools-h17-b.tar.gz
git -C "$scratch" apply -R --index --include='tests/*' "$here/totient.patch"
cp "$here/test_split_no_totient_yet.py" "$scratch/tests/"
held_out_archive more-itertools-h17-a.tar.gz
