#!/usr/bin/env bash
# The main job: services up, database migrated, worker and web app running on the embedded default.
# Serves until Ctrl-C, then shuts both processes down in order.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/lib.sh
PORT="${PORT:-3000}"

if node -e 'const s=require("net").connect(+process.argv[1],"127.0.0.1");s.on("connect",()=>process.exit(0));s.on("error",()=>process.exit(1))' "$PORT"; then
  die "port $PORT is already in use (another GitBench demo?). Stop it, or run with PORT=<free port> npm run demo"
fi

bash scripts/setup.sh
. "$GITBENCH_STATE_DIR/env"
# The upstream sample data, when there is any: its results become legacy campaigns, its fixtures a suite.
if upstream="$(upstream_dir)"; then export GITBENCH_UPSTREAM_DIR="$upstream"; fi
# Replay reads only from configured directories: the demo's recorded models are placed here
# (scripts/demo-campaign.ts), and the web app and the worker read them from here only.
export GITBENCH_REPLAY_DIRS="$GITBENCH_STATE_DIR/replays"
mkdir -p "$GITBENCH_REPLAY_DIRS"

node --import tsx scripts/demo-admin.ts "http://127.0.0.1:$PORT"
say "building the web app"
npm run build -w @gitbench/web >/tmp/gitbench-web-build.log 2>&1 || { tail -40 /tmp/gitbench-web-build.log; die "web build failed"; }

pids=()
cleanup() {
  # npm forwards the terminal's Ctrl-C too: one stop, however many signals arrive while it runs.
  trap - EXIT
  trap '' INT TERM
  say "stopping"
  for p in "${pids[@]}"; do kill -TERM "$p" 2>/dev/null || true; done
  wait || true
}
trap cleanup EXIT INT TERM

# Each in a session of its own: Ctrl-C in the terminal signals this script only, and the script
# stops them once, in order. Had they shared the terminal's process group, the worker would get the
# terminal's SIGINT and then the script's SIGTERM.
setsid node --import tsx apps/worker/src/main.ts &
pids+=($!)
# Started directly (not through npm run) so that the pid is the server itself: npm does not pass
# SIGTERM on to it, and a stopped demo would leave the web server running.
(cd apps/web && exec setsid ../../node_modules/.bin/next start -p "$PORT" -H 127.0.0.1) &
pids+=($!)
# Something to look at: the upstream results as legacy campaigns and one small demo campaign, launched
# through the HTTP API like the form does (reused, not repeated, when the demo runs again).
node --import tsx scripts/demo-campaign.ts "http://127.0.0.1:$PORT" ||
  say "the demo campaign could not be launched (see above); the dashboard works without it"
say "dashboard: http://127.0.0.1:$PORT  (status: http://127.0.0.1:$PORT/status) — Ctrl-C stops"
node --import tsx scripts/demo-admin.ts "http://127.0.0.1:$PORT"
wait -n
