set -euo pipefail
# Run from the root of a clone of long-rebase/more-itertools-lr07's bundle (branches main and peekable-index).
# Stages the leak composite/more-itertools-c03 starts from: the contributor's ~/.pypirc committed with
# "Fix up whitespace" (its PyPI token) and changed again with "Add peekable.__contains__" (a TestPyPI section with
# a second token), carried by every later commit; pr-168 is the branch as reviewed. filter-branch keeps every
# author, committer and date, so the ids come out the same on every run. The tokens are made up.
export FILTER_BRANCH_SQUELCH_WARNING=1
git filter-branch -f --index-filter '
  case "$(git log -1 --format=%s "$GIT_COMMIT")" in
    "Add peekable.index method") v=0 ;;
    "Fix up whitespace"|"deque has no index method on Py2") v=1 ;;
    *) v=2 ;;
  esac
  if [ $v != 0 ]; then {
    printf "[distutils]\nindex-servers =\n    pypi\n"
    if [ $v = 2 ]; then printf "    testpypi\n"; fi
    printf "\n[pypi]\nusername = __token__\npassword = pypi-AgEIcHlwaS5vcmcCJDRmYTI3ZjE5LWJmNDMtNDg5Yy1iMTc1LTkyZjBkNmE3YzMwNQACKlszLCJlN2I0YzJhOS04MjBkLTRlNTUtYjM5Ni0yZmE4ZDE0NzYwYzEiXQAABiCQxv3Rk7mWzEo2tNuH8fLbqZyXaGd5cTPjRsUoKeIw\n"
    if [ $v = 2 ]; then printf "\n[testpypi]\nrepository = https://test.pypi.org/legacy/\nusername = __token__\npassword = pypi-AgENdGVzdC5weXBpLm9yZwIkNWM4ZDJlYTEtOWY3Yi00ZTYxLWE0MjgtMDNiZjc2ZTkxZDQ4AAIqWzMsIjliMmY2ZDQwLTFhYzUtNDc3ZS04ZjM5LWM1ZTIwYjdhNDExNiJdAAAGIHf2Lk9QaWcYt3ZxNbR1oJe8sDu4VnAKiHgm0pXEqT5y\n"; fi
  } > ../pypirc
  git update-index --add --cacheinfo 100644,"$(git hash-object -w ../pypirc)",.pypirc; fi
' -- main..peekable-index
git update-ref -d refs/original/refs/heads/peekable-index
git branch -f pr-168 peekable-index
