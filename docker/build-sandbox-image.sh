#!/usr/bin/env bash
# Builds the sandbox image and prints its tag. The tag carries a hash of every build input, so an
# attempt that records the tag (and the image id) records exactly what it ran in. Idempotent: an image
# with the same tag is reused.
# Route 1: `docker build` from debian:bookworm-slim (machines with a registry).
# Route 2: debootstrap a bookworm root file system from the configured Debian mirror, import it as the
#          base, and run the same Dockerfile on top (machines without a registry).
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/lib.sh

# python3-pytest: the gist family runs a repository's tests (and the gist) with pytest; every other
# task family's tools and graders are python3 standard library only.
PACKAGES="git,ca-certificates,python3,bash,coreutils,util-linux,python3-pytest"
# The runner (packages/sandbox/runner) is part of the image: the tag covers its files too. Its read of an
# agent's repository finds submodules as the scorer's guard does: the guard goes beside it, as a module.
RUNNER_FILES="$(ls packages/sandbox/runner/*.py | LC_ALL=C sort)"
GUARD=packages/core/src/scoring/lookup-config.py
hash="$( (cat docker/sandbox/Dockerfile; echo "bookworm $PACKAGES"; for f in $RUNNER_FILES $GUARD; do echo "$f"; cat "$f"; done) | sha256sum | cut -c1-12)"
tag="gitbench-sandbox:$hash"
# The local route's base is the packages alone: a change of the runner or the Dockerfile reuses it.
base="gitbench-sandbox-base:$(echo "bookworm $PACKAGES" | sha256sum | cut -c1-12)"
# --base: the tag of that base, for docker/build-local-images.sh (which builds on it too).
if [ "${1:-}" = --base ]; then echo "$base"; exit 0; fi

if docker image inspect "$tag" >/dev/null 2>&1; then echo "$tag"; exit 0; fi

# The build context: the Dockerfile and the runner's files, nothing else of the checkout.
context="$(mktemp -d /tmp/gitbench-sandbox-context.XXXXXX)"
trap 'rm -rf "$context"' EXIT
cp docker/sandbox/Dockerfile "$context/"
mkdir "$context/runner"
cp $RUNNER_FILES "$context/runner/"
cp "$GUARD" "$context/runner/lookup_config.py"

say "building $tag"
if timeout 60 docker build -q -t "$tag" "$context" >/tmp/gitbench-docker-build.log 2>&1; then
  echo "$tag"; exit 0
fi
say "docker build from debian:bookworm-slim failed (no registry?); building the base from a local root file system"

mirror="${DEBIAN_MIRROR:-}"
if [ -z "$mirror" ]; then
  mirror="$(grep -hsE '^URIs:' /etc/apt/sources.list.d/*.sources | awk '{print $2}' | grep -v security | head -1 || true)"
  [ -n "$mirror" ] || mirror="$(grep -hsE '^deb ' /etc/apt/sources.list /etc/apt/sources.list.d/*.list | awk '{print $2}' | grep -v security | head -1 || true)"
fi
[ -n "$mirror" ] || die "no Debian mirror found in /etc/apt/sources.list(.d); set DEBIAN_MIRROR"
command -v debootstrap >/dev/null || apt_install "sandbox image base" debootstrap

if ! docker image inspect "$base" >/dev/null 2>&1; then
  root="$(mktemp -d /tmp/gitbench-rootfs.XXXXXX)"
  trap 'rm -rf "$root" "$context"' EXIT
  say "debootstrap bookworm from $mirror (about a minute)"
  debootstrap --variant=minbase --include="$PACKAGES" bookworm "$root" "$mirror" >/tmp/gitbench-debootstrap.log 2>&1 ||
    die "debootstrap failed; see /tmp/gitbench-debootstrap.log"
  rm -rf "$root"/var/cache/apt/archives/*.deb "$root"/var/lib/apt/lists/*
  tar -C "$root" -c . | docker import - "$base" >/dev/null
fi
docker build -q --build-arg BASE="$base" -t "$tag" "$context" >/tmp/gitbench-docker-build.log 2>&1 ||
  die "docker build on the local base failed; see /tmp/gitbench-docker-build.log"
echo "$tag"
