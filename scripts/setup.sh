#!/usr/bin/env bash
# Everything both README commands need, idempotently: dependencies, services, the sandbox image,
# the Prisma client and the database schema. Writes .gitbench/env for the processes started later.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/lib.sh

command -v node >/dev/null || die "Node.js 20.19+ is required (https://nodejs.org or apt-get install nodejs)"
node -e 'const [a,b]=process.versions.node.split(".").map(Number);process.exit(a>20||(a===20&&b>=19)?0:1)' ||
  die "Node.js $(node -v) is too old; 20.19 or newer is required"

lock_hash="$(sha256sum package-lock.json | cut -c1-16)"
if [ "$(cat node_modules/.gitbench-lock 2>/dev/null)" != "$lock_hash" ]; then
  say "installing npm dependencies (npm ci)"
  npm ci --no-audit --no-fund --loglevel=error >/dev/null || die "npm ci failed"
  echo "$lock_hash" > node_modules/.gitbench-lock
fi

bash scripts/services.sh postgres redis docker
# The hard tier's miner (scripts/hard-mine.ts) judges a project's tests with Debian's python3 and pytest, as the sandbox does.
if ! /usr/bin/python3 -c 'import pytest' 2>/dev/null; then apt_install "the hard tier's miner (scripts/hard-mine.ts)" python3 python3-pytest; fi

image="$(bash docker/build-sandbox-image.sh)"
# Each change to docker/sandbox builds a new content-addressed image; the old ones nothing uses go.
bash docker/prune-sandbox-images.sh "$image" || say "old sandbox images were not pruned (see above); continuing"
mkdir -p "$GITBENCH_STATE_DIR"
# Sessions are signed and provider keys encrypted under keys derived from GITBENCH_SECRET_KEY. A local
# set-up makes one once and keeps it (owner-only) beside the state; a deployment sets its own.
if [ -z "${GITBENCH_SECRET_KEY:-}" ]; then
  key_file="$GITBENCH_STATE_DIR/secret-key"
  [ -s "$key_file" ] || (umask 077 && node -e 'process.stdout.write(require("crypto").randomBytes(32).toString("base64"))' > "$key_file")
  GITBENCH_SECRET_KEY="$(cat "$key_file")"
fi
(
  umask 077
  {
    echo "export DATABASE_URL='$DATABASE_URL'"
    echo "export REDIS_URL='$REDIS_URL'"
    echo "export GITBENCH_SANDBOX_IMAGE='$image'"
    echo "export GITBENCH_SECRET_KEY='$GITBENCH_SECRET_KEY'"
  } > "$GITBENCH_STATE_DIR/env"
)
export GITBENCH_SANDBOX_IMAGE="$image"
say "sandbox image $image"

bash scripts/prisma.sh generate >/dev/null 2>&1 || { bash scripts/prisma.sh generate; die "prisma generate failed"; }
node_modules/.bin/tsx packages/db/src/migrate-cli.ts >&2 || die "database migration failed"
node_modules/.bin/tsx packages/db/src/stats/refresh-stale-cli.ts >&2 || die "refreshing the campaign stats failed"
