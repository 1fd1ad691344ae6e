#!/usr/bin/env bash
# Two worker "hosts" on this one machine, for `npm run bench:hosts` (and by hand):
#   host N  = network namespace gbhostN, reached over a veth pair (10.231.N.1 here, 10.231.N.2 inside),
#             with Postgres and Redis forwarded to 10.231.N.1 (they listen on 127.0.0.1 only), and a
#             Docker engine of its own: host 1 uses this machine's engine, host 2 a second dockerd with
#             its own data root, exec root and socket (unix:///run/gitbench-host2/docker.sock).
# A unix socket is not behind a network namespace, so each host reaches its engine through the socket
# file, as a worker on another machine reaches its local engine. Needs root (ip netns, dockerd).
#   bash scripts/hosts.sh up      # idempotent; prints the env of each host
#   bash scripts/hosts.sh down    # removes the namespaces, forwarders and the second engine
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/lib.sh

HOST2_DIR=/run/gitbench-host2
HOST2_SOCK="unix://$HOST2_DIR/docker.sock"
HOST2_ROOT="$GITBENCH_STATE_DIR/host2-docker"
PG_PORT=5432
REDIS_PORT=6379

is_root || die "the two hosts need root (network namespaces and a second Docker engine)"
command -v ip >/dev/null || apt_install "network namespaces" iproute2
command -v socat >/dev/null || apt_install "forwarding Postgres and Redis into the namespaces" socat

up_namespace() {
  local n="$1" ns="gbhost$1" out="gbh$1o" in="gbh$1i"
  if ! ip netns list | grep -qw "$ns"; then
    ip netns add "$ns"
    ip link add "$out" type veth peer name "$in"
    ip link set "$in" netns "$ns"
    ip addr add "10.231.$n.1/30" dev "$out"
    ip link set "$out" up
    ip -n "$ns" addr add "10.231.$n.2/30" dev "$in"
    ip -n "$ns" link set "$in" up
    ip -n "$ns" link set lo up
  fi
  # Postgres and Redis answer on 127.0.0.1 only: forward this host's address to them.
  for port in "$PG_PORT" "$REDIS_PORT"; do
    local pidfile="$GITBENCH_STATE_DIR/hosts/fwd-$n-$port.pid"
    if [ -f "$pidfile" ] && kill -0 "$(cat "$pidfile")" 2>/dev/null; then continue; fi
    setsid nohup socat "TCP-LISTEN:$port,bind=10.231.$n.1,fork,reuseaddr" "TCP:127.0.0.1:$port" >/dev/null 2>&1 < /dev/null &
    echo $! > "$pidfile"
  done
}

up_engine2() {
  if DOCKER_HOST="$HOST2_SOCK" docker info >/dev/null 2>&1; then return 0; fi
  say "starting a second Docker engine ($HOST2_SOCK, data root $HOST2_ROOT)"
  mkdir -p "$HOST2_DIR" "$HOST2_ROOT"
  # Sandboxes run with --network none, so the engine needs no bridge and touches no iptables.
  setsid nohup dockerd --data-root "$HOST2_ROOT" --exec-root "$HOST2_DIR/exec" --pidfile "$HOST2_DIR/docker.pid" \
    -H "$HOST2_SOCK" --bridge=none --iptables=false --ip-masq=false \
    >"$GITBENCH_STATE_DIR/hosts/dockerd2.log" 2>&1 < /dev/null &
  wait_for "the second Docker engine" 120 env DOCKER_HOST="$HOST2_SOCK" docker info ||
    die "the second dockerd did not come up; see $GITBENCH_STATE_DIR/hosts/dockerd2.log"
}

case "${1:-up}" in
  up)
    mkdir -p "$GITBENCH_STATE_DIR/hosts"
    . "$GITBENCH_STATE_DIR/env"
    up_namespace 1
    up_namespace 2
    up_engine2
    # Each engine has its own images: the sandbox image is copied over once (same image id).
    if ! DOCKER_HOST="$HOST2_SOCK" docker image inspect "$GITBENCH_SANDBOX_IMAGE" >/dev/null 2>&1; then
      say "loading $GITBENCH_SANDBOX_IMAGE into the second engine"
      docker save "$GITBENCH_SANDBOX_IMAGE" | DOCKER_HOST="$HOST2_SOCK" docker load >/dev/null
    fi
    for n in 1 2; do ip netns exec "gbhost$n" true; done
    say "host 1: netns gbhost1, services at 10.231.1.1, DOCKER_HOST=${DOCKER_HOST:-unix:///var/run/docker.sock}"
    say "host 2: netns gbhost2, services at 10.231.2.1, DOCKER_HOST=$HOST2_SOCK"
    ;;
  down)
    for f in "$GITBENCH_STATE_DIR"/hosts/fwd-*.pid; do [ -f "$f" ] && kill "$(cat "$f")" 2>/dev/null; rm -f "$f"; done
    for n in 1 2; do ip netns del "gbhost$n" 2>/dev/null || true; ip link del "gbh${n}o" 2>/dev/null || true; done
    [ -f "$HOST2_DIR/docker.pid" ] && kill "$(cat "$HOST2_DIR/docker.pid")" 2>/dev/null || true
    ;;
  *) die "usage: bash scripts/hosts.sh up|down" ;;
esac
