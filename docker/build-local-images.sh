#!/usr/bin/env bash
# For machines that cannot reach a container registry: builds, from Debian packages on a local bookworm
# base, the images docker/docker-compose.yml otherwise pulls, and prints the variables that name them:
#   eval "$(bash docker/build-local-images.sh)"
# - the sandbox image (docker/build-sandbox-image.sh; its debootstrap base is reused as the base here,
#   or debian:bookworm-slim where that can be pulled);
# - a Node base for the app (the host's node binary, >= 20.19, and its npm: no Node image is pulled);
# - PostgreSQL 15 and Redis 7 from Debian's packages (docker/local/*.Dockerfile).
# The builds still need Debian's mirror (apt-get) and, for the app image, the npm registry (npm ci).
# Idempotent: tags carry a hash of their inputs and an existing image is reused.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/lib.sh

sandbox="$(bash docker/build-sandbox-image.sh)"
base="$(bash docker/build-sandbox-image.sh --base)"
if ! docker image inspect "$base" >/dev/null 2>&1; then
  base=debian:bookworm-slim
  docker image inspect "$base" >/dev/null 2>&1 || docker pull -q "$base" >/dev/null ||
    die "no local bookworm base ($base); run docker/build-sandbox-image.sh on a machine with debootstrap"
fi

# Build containers use the engine's default bridge; where it is unusable (no docker0), the host network.
network="${GITBENCH_BUILD_NETWORK:-}"
if [ -z "$network" ]; then
  network=default
  if [ -d /sys/class/net ] && [ ! -e /sys/class/net/docker0 ]; then network=host; fi
fi

build() { # <tag> <dockerfile> <context>
  if docker image inspect "$1" >/dev/null 2>&1; then return 0; fi
  say "building $1 on $base"
  docker build -q --network "$network" --build-arg BASE="$base" -t "$1" -f "$2" "$3" >/tmp/gitbench-local-image.log 2>&1 ||
    die "building $1 failed; see /tmp/gitbench-local-image.log"
}
digest() { (cat "$@"; echo "$base") | sha256sum | cut -c1-12; }

build "gitbench-postgres:15-$(digest docker/local/postgres.Dockerfile docker/local/postgres-entrypoint.sh)" \
  docker/local/postgres.Dockerfile docker/local
postgres="gitbench-postgres:15-$(digest docker/local/postgres.Dockerfile docker/local/postgres-entrypoint.sh)"
redis="gitbench-redis:7-$(digest docker/local/redis.Dockerfile)"
build "$redis" docker/local/redis.Dockerfile docker/local

nodebin="$(command -v node || true)"
[ -n "$nodebin" ] || die "no node on this host to copy into the app's base image (Node >= 20.19 needed)"
nodebin="$(readlink -f "$nodebin")"
"$nodebin" -e 'const [a,b]=process.versions.node.split(".").map(Number);process.exit(a>20||(a===20&&b>=19)?0:1)' ||
  die "the host's node is $("$nodebin" --version); the app needs Node >= 20.19"
npmdir="$(dirname "$(dirname "$(readlink -f "$(command -v npm)")")")"
[ -f "$npmdir/package.json" ] || die "npm not found next to the host's node"
# The host's local CA certificates go along: where a TLS-inspecting proxy stands between this machine and
# the npm registry, the app build's npm ci must trust it too.
cas=(); for f in /usr/local/share/ca-certificates/*.crt; do [ -f "$f" ] && cas+=("$f"); done
node_tag="gitbench-node:$("$nodebin" --version | tr -d v)-$( (sha256sum "$nodebin"; cat "$npmdir/package.json"; cat "${cas[@]}" </dev/null) | digest docker/local/node.Dockerfile -)"
if ! docker image inspect "$node_tag" >/dev/null 2>&1; then
  ctx="$(mktemp -d /tmp/gitbench-node-ctx.XXXXXX)"; trap 'rm -rf "$ctx"' EXIT
  cp "$nodebin" "$ctx/node"; cp -r "$npmdir" "$ctx/npm"; cp docker/local/node.Dockerfile "$ctx/"
  mkdir "$ctx/ca"; [ "${#cas[@]}" -eq 0 ] || cp "${cas[@]}" "$ctx/ca/"
  build "$node_tag" "$ctx/node.Dockerfile" "$ctx"
fi

printf 'export GITBENCH_SANDBOX_IMAGE=%q GITBENCH_NODE_IMAGE=%q GITBENCH_POSTGRES_IMAGE=%q GITBENCH_REDIS_IMAGE=%q GITBENCH_BUILD_NETWORK=%q\n' \
  "$sandbox" "$node_tag" "$postgres" "$redis" "$network"
