set -euo pipefail
# Run from the root of a clone of semantic-merge/click-sm01's bundle (main 8ae3da44, 8.1.x 5b744198), with
# upstream's history (for 1a4d8c1 and a6e0d29) fetched as refs/up/main. Stages composite/click-c05's main: the
# merge of 8.1.x resolved with every conflict to main's side (click-sm01's first negative), then upstream's next two
# pull requests on main, #2365 and #2509, re-made on it from their src/ and tests/ changes (CHANGES.rst is cut
# from these trees), their authors and dates kept. Fixed identities and dates, so the ids come out the same.
export GIT_COMMITTER_NAME='Dana Whitfield' GIT_COMMITTER_EMAIL='dana@example.org'
git checkout -q -B main 8ae3da447a4729fba28420b97ae6804c9da3c7f8
GIT_AUTHOR_NAME="$GIT_COMMITTER_NAME" GIT_AUTHOR_EMAIL="$GIT_COMMITTER_EMAIL" \
  GIT_AUTHOR_DATE='1725955200 +0200' GIT_COMMITTER_DATE='1725955200 +0200' \
  git merge -q --no-ff --no-edit 8.1.x >/dev/null 2>&1 || true
for f in src/click/core.py src/click/exceptions.py src/click/parser.py; do
  git show :2:"$f" > ../o; git show :1:"$f" > ../b; git show :3:"$f" > ../t
  git merge-file --ours ../o ../b ../t; cp ../o "$f"
done
git add -A
GIT_AUTHOR_NAME="$GIT_COMMITTER_NAME" GIT_AUTHOR_EMAIL="$GIT_COMMITTER_EMAIL" \
  GIT_AUTHOR_DATE='1725955200 +0200' GIT_COMMITTER_DATE='1725955200 +0200' git commit -q --no-edit
for c in $(git rev-list --reverse --first-parent refs/up/main | grep -E '^(1a4d8c1|a6e0d29)'); do
  git diff "$c^" "$c" -- src tests | git apply --index
  GIT_AUTHOR_NAME="$(git log -1 --format=%an "$c")" GIT_AUTHOR_EMAIL="$(git log -1 --format=%ae "$c")" \
    GIT_AUTHOR_DATE="$(git log -1 --format=%ad --date=raw "$c")" \
    GIT_COMMITTER_DATE="$(git log -1 --format=%ct "$c") +0200" git commit -q -m "$(git log -1 --format=%B "$c")"
done
