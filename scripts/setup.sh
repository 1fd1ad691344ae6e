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

image="$(bash docker/build-sandbox-image.sh)"
mkdir -p "$GITBENCH_STATE_DIR"
{
  echo "export DATABASE_URL='$DATABASE_URL'"
  echo "export REDIS_URL='$REDIS_URL'"
  echo "export GITBENCH_SANDBOX_IMAGE='$image'"
} > "$GITBENCH_STATE_DIR/env"
export GITBENCH_SANDBOX_IMAGE="$image"
say "sandbox image $image"

bash scripts/prisma.sh generate >/dev/null 2>&1 || { bash scripts/prisma.sh generate; die "prisma generate failed"; }
node_modules/.bin/tsx packages/db/src/migrate-cli.ts >&2 || die "database migration failed"
node_modules/.bin/tsx packages/db/src/stats/refresh-stale-cli.ts >&2 || die "refreshing the campaign stats failed"
