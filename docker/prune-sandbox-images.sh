#!/usr/bin/env bash
# Removes sandbox images that nothing needs any more. Every change to docker/sandbox (or the runner) builds a new
# content-addressed gitbench-sandbox:<hash> (build-sandbox-image.sh) and nothing removed the old ones.
#
#   prune-sandbox-images.sh [--repository NAME] [--min-age-hours N] CURRENT_TAG
#
# Removes the tags of NAME (default gitbench-sandbox, that repository exactly: never gitbench-sandbox-base or any
# other name) except CURRENT_TAG, an image any container uses (running or stopped: a stopped one still needs its
# image to start or be inspected), and an image built less than N hours ago (default 24). The age is kept because
# checkouts share an engine: another checkout's branch may have built its own current image a moment ago and be
# between two tests; a day old, it is rebuilt in seconds on the cached base if still wanted. Never forced: Docker
# itself refuses to delete an image a container started meanwhile uses. Prints what it removed; a tag it could not
# remove is reported, and does not fail the run.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/lib.sh

repository=gitbench-sandbox
min_age_hours=24
while [ $# -gt 1 ]; do
  case "$1" in
    --repository) repository="$2"; shift 2 ;;
    --min-age-hours) min_age_hours="$2"; shift 2 ;;
    *) die "prune-sandbox-images.sh: unknown option $1" ;;
  esac
done
[ $# -eq 1 ] || die "usage: prune-sandbox-images.sh [--repository NAME] [--min-age-hours N] CURRENT_TAG"
current="$1"
case "$current" in "$repository":*) ;; *) die "prune-sandbox-images.sh: $current is not a tag of $repository" ;; esac
case "$min_age_hours" in '' | *[!0-9]*) die "prune-sandbox-images.sh: --min-age-hours takes whole hours" ;; esac

current_id="$(docker image inspect --format '{{.Id}}' "$current")" ||
  die "prune-sandbox-images.sh: the current image $current does not exist"
# The image of every container on the engine, whoever made it.
in_use="$(docker ps -aq --no-trunc | xargs -r docker inspect --format '{{.Image}}' 2>/dev/null || true)"
now="$(date +%s)"
removed=0
kept=0
# `docker image ls NAME` lists that repository only; the exact match below is a second guard.
for tag in $(docker image ls --format '{{.Repository}}:{{.Tag}}' "$repository"); do
  [ "${tag%%:*}" = "$repository" ] || continue
  [ "$tag" != "$current" ] && [ "${tag#*:}" != '<none>' ] || continue
  read -r id created < <(docker image inspect --format '{{.Id}} {{.Created}}' "$tag" 2>/dev/null) || continue
  age_hours=$(((now - $(date -d "$created" +%s)) / 3600))
  if [ "$id" = "$current_id" ] || grep -qxF "$id" <<<"$in_use" || [ "$age_hours" -lt "$min_age_hours" ]; then
    kept=$((kept + 1))
    continue
  fi
  if err="$(docker image rm "$tag" 2>&1 >/dev/null)"; then
    say "removed the old sandbox image $tag (${age_hours} h old)"
    removed=$((removed + 1))
  else
    say "kept $tag: ${err:0:300}"
    kept=$((kept + 1))
  fi
done
say "sandbox images: $current is current; $removed old one(s) removed, $kept other(s) kept (in use or under ${min_age_hours} h old)"
