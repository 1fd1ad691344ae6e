# Sourced by the staging scripts that re-create upstream commits under other parents (more-itertools-lr10, click-lr11).
# remake <upstream commit> <tree> <parent>...: a commit of that tree and those parents with the upstream commit's
# message, author, committer and dates, so that the re-created history is the same every time it is built.
remake() {
  local orig=$1 tree=$2
  shift 2
  local parents=()
  for p in "$@"; do parents+=(-p "$p"); done
  GIT_AUTHOR_NAME=$(git log -1 --format=%an "$orig") GIT_AUTHOR_EMAIL=$(git log -1 --format=%ae "$orig") \
    GIT_AUTHOR_DATE=$(git log -1 --format=%ad --date=raw "$orig") \
    GIT_COMMITTER_NAME=$(git log -1 --format=%cn "$orig") GIT_COMMITTER_EMAIL=$(git log -1 --format=%ce "$orig") \
    GIT_COMMITTER_DATE=$(git log -1 --format=%cd --date=raw "$orig") \
    git commit-tree "$tree" "${parents[@]}" -F <(git log -1 --format=%B "$orig")
}

# enter_scratch_repo <bundle>: cd into a new repository, removed on exit, holding the bundle's branches; no
# configuration of this machine's applies (GIT_CONFIG_NOSYSTEM, a HOME of its own).
enter_scratch_repo() {
  work=$(mktemp -d)
  trap 'rm -rf "$work"' EXIT
  cd "$work"
  export GIT_CONFIG_NOSYSTEM=1 HOME=$work
  git init -q
  git fetch -q "$1" 'refs/heads/*:refs/heads/*'
}
