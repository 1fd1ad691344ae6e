# Shared helpers for the set-up scripts. Sourced, never run.
# Defaults describe the embedded local set-up; every one can be overridden from the environment.
export DATABASE_URL="${DATABASE_URL:-postgresql://postgres@127.0.0.1:5432/gitbench}"
export REDIS_URL="${REDIS_URL:-redis://127.0.0.1:6379}"
export NEXT_TELEMETRY_DISABLED=1
export GITBENCH_STATE_DIR="${GITBENCH_STATE_DIR:-$PWD/.gitbench}"

say() { printf '\033[1m[gitbench]\033[0m %s\n' "$*" >&2; }
die() { printf '\033[1;31m[gitbench] error:\033[0m %s\n' "$*" >&2; exit 1; }
is_root() { [ "$(id -u)" = 0 ]; }

# Installs Debian packages when we are root and apt exists; otherwise explains what to do.
apt_install() {
  local what="$1"; shift
  if ! is_root || ! command -v apt-get >/dev/null; then
    die "$what is missing and cannot be installed here (not root or no apt-get). Install: $* — or point the matching *_URL / DOCKER_HOST variable at a running service."
  fi
  say "installing $* from Debian packages (for $what)"
  if [ ! -f /var/lib/apt/lists/.gitbench-updated ] || [ -z "$(ls /var/lib/apt/lists/ 2>/dev/null | grep -v lock | head -1)" ]; then
    apt-get -o DPkg::Lock::Timeout=600 update -qq >/dev/null || die "apt-get update failed; cannot install $*"
    touch /var/lib/apt/lists/.gitbench-updated
  fi
  # Another apt run on the machine (a second checkout's set-up, unattended upgrades) holds dpkg's lock
  # for a while: wait for it instead of failing the set-up.
  DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=600 install -y -qq "$@" >/dev/null || die "apt-get install $* failed"
}

wait_for() {
  local what="$1" tries="$2"; shift 2
  for _ in $(seq "$tries"); do "$@" >/dev/null 2>&1 && return 0; sleep 0.5; done
  return 1
}
# Repository root: relative suite directories in campaign configurations resolve against it.
export GITBENCH_ROOT="${GITBENCH_ROOT:-$PWD}"

# The upstream GitBench sample data (fixtures and result files) that tests compare against and the demo
# imports. It lives beside the checkout (../shared/gitbench-upstream); a clone of a local checkout, as
# CI makes, finds it beside the checkout it was cloned from. GITBENCH_UPSTREAM_DIR overrides both.
upstream_dir() {
  local candidate origin
  if [ -n "${GITBENCH_UPSTREAM_DIR:-}" ]; then
    [ -d "$GITBENCH_UPSTREAM_DIR" ] && (cd "$GITBENCH_UPSTREAM_DIR" && pwd) && return 0
    return 1
  fi
  for candidate in "$PWD/../shared/gitbench-upstream" \
    "$(origin="$(git remote get-url origin 2>/dev/null || true)"; [ -d "$origin" ] && echo "$origin/../shared/gitbench-upstream")"; do
    [ -n "$candidate" ] && [ -d "$candidate/fixtures" ] && (cd "$candidate" && pwd) && return 0
  done
  return 1
}
