#!/usr/bin/env bash
# CI's container leg (issue 10), in steps .ci/run calls (facts: ../shared/notes/containers.md):
#
#   docker/ci-leg.sh engine-start   install docker.io if missing, start dockerd (vfs, host firewall untouched),
#                                   wait at most 30 s
#   docker/ci-leg.sh run            build the static binary and extconf-mock:ci; run every suite against it
#                                   (exit 0 required), then against one sabotaged container (its targeted rows
#                                   must be executed-fail); watch that no connection leaves loopback
#   docker/ci-leg.sh engine-stop    stop the engine this script started (the PID in /var/run/docker.pid)
#   docker/ci-leg.sh no-engine      with the engine stopped: the same run ends within 15 s, rows blocked, exit 1
set -euo pipefail
cd "$(dirname "$0")/.."

IMAGE=extconf-mock:ci
TOGGLE=iv.refusal-wrong-reason # agent-side, interview: the refusal carries a reason outside the closed set
STARTED_MARK=${TMPDIR:-/tmp}/extconf-ci-dockerd.started
OUT=evidence/runs/ci-container

ms() { date +%s%3N; }
say() { echo "container leg: $*"; }
die() {
  echo "container leg: FAIL: $*" >&2
  exit 1
}

engine_up() { timeout 5 docker info >/dev/null 2>&1; }

engine_start() {
  local t0
  t0=$(ms)
  if ! command -v dockerd >/dev/null; then
    say "installing docker.io (Debian's engine; runs as root without systemd)"
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends docker.io >/dev/null
  fi
  if engine_up; then
    say "an engine is already running: used as is, and left running at the end"
    rm -f "$STARTED_MARK"
    return
  fi
  # --iptables=false/--ip6tables=false: the host firewall is left alone; published ports then go through
  # docker-proxy, which the container target binds to 127.0.0.1 only.
  setsid nohup dockerd --host=unix:///var/run/docker.sock --storage-driver=vfs \
    --iptables=false --ip6tables=false >/tmp/dockerd.log 2>&1 </dev/null &
  local i
  for i in $(seq 1 120); do
    engine_up && break
    sleep 0.25
  done
  engine_up || {
    tail -20 /tmp/dockerd.log >&2
    die "the engine did not answer within 30 s"
  }
  cat /var/run/docker.pid >"$STARTED_MARK"
  say "engine $(docker version --format '{{.Server.Version}} (API {{.Server.APIVersion}})') up in $(($(ms) - t0)) ms, pid $(cat "$STARTED_MARK")"
}

engine_stop() {
  [ -f "$STARTED_MARK" ] || return 0
  local pid
  pid=$(cat "$STARTED_MARK")
  rm -f "$STARTED_MARK"
  # Leftovers of the harness first: without a reaper nothing else would remove them.
  local left
  left=$(timeout 10 docker ps -aq --filter label=org.extconf.harness 2>/dev/null || true)
  [ -z "$left" ] || {
    say "removing leftover containers: $left"
    timeout 30 docker rm -f $left >/dev/null || true
  }
  kill "$pid" 2>/dev/null || return 0
  local i
  for i in $(seq 1 120); do
    kill -0 "$pid" 2>/dev/null || break
    sleep 0.25
  done
  if kill -0 "$pid" 2>/dev/null; then
    kill -9 "$pid" 2>/dev/null || true
  fi
  say "engine (pid $pid) stopped"
}

# watch_run RUN_NAME WANT_EXIT CMD...: runs CMD in the background and samples its TCP connections, the engine's port
# listeners (docker-proxy) and the container's own sockets (its network namespace) every 0.2 s; afterwards every
# peer must be 127.0.0.1, or the host's end of the engine's bridge for sockets inside the container.
watch_run() {
  local name=$1 want=$2
  shift 2
  local log=$OUT/$name.watch
  : >"$log"
  "$@" >"$OUT/$name.stdout" 2>"$OUT/$name.stderr" &
  local pid=$! cid cpid
  while kill -0 "$pid" 2>/dev/null; do
    ss -Htnp 2>/dev/null | awk -v p="pid=$pid," 'index($0, p) { gsub(/\[::ffff:|\]/, "", $5); print "harness", $5 }' >>"$log" || true
    ss -Htlnp 2>/dev/null | awk '/docker-proxy/ { print "listen", $4 }' >>"$log" || true
    for cid in $(timeout 5 docker ps -q --filter label=org.extconf.harness 2>/dev/null); do
      cpid=$(timeout 5 docker inspect -f '{{.State.Pid}}' "$cid" 2>/dev/null || true)
      [ -n "$cpid" ] && [ "$cpid" != 0 ] && command -v nsenter >/dev/null &&
        nsenter -t "$cpid" -n ss -Htn 2>/dev/null | awk '{ gsub(/\[::ffff:|\]/, "", $5); print "container", $5 }' >>"$log" || true
    done
    sleep 0.2
  done
  local rc=0
  wait "$pid" || rc=$?
  tail -3 "$OUT/$name.stdout"
  [ "$rc" = "$want" ] || {
    grep -v '^\s*$' "$OUT/$name.stderr" | tail -30 >&2
    die "$name run exited $rc, want $want"
  }
  local gw bad
  gw=$(timeout 5 docker network inspect bridge -f '{{range .IPAM.Config}}{{.Gateway}}{{end}}' 2>/dev/null || true)
  bad=$(awk -v gw="$gw" '
    $1 == "harness" || $1 == "listen" { if ($2 !~ /^127\.0\.0\.1:/) print }
    $1 == "container" { if ($2 !~ /^127\.0\.0\.1:/ && (gw == "" || index($2, gw ":") != 1)) print }' "$log" | sort -u)
  [ -z "$bad" ] || die "$name: sockets off loopback: $bad"
  say "$name: loopback only: $(awk '$1=="harness"' "$log" | wc -l) harness connection samples, all to 127.0.0.1;" \
    "docker-proxy listening on $(awk '$1=="listen"{sub(/:[0-9]+$/,"",$2); print $2}' "$log" | sort -u | tr '\n' ' ')only;" \
    "$(awk '$1=="container"' "$log" | wc -l) samples inside the container, peers $(awk '$1=="container"{sub(/:[0-9]+$/,"",$2); print $2}' "$log" | sort -u | tr '\n' ' ')(127.0.0.1 and the host's bridge end ${gw:-?})"
  [ "$(awk '$1=="harness"' "$log" | wc -l)" -gt 0 ] || die "$name: no harness connection was seen: the watch saw nothing"
}

leg_run() {
  engine_up || die "no engine: run '$0 engine-start' first"
  local t0 bin image_id
  t0=$(ms)
  rm -rf "$OUT"
  mkdir -p "$OUT"
  bin=$(mktemp -d)/runsuite
  go build -o "$bin" ./cmd/runsuite
  docker/build.sh "$IMAGE" >/dev/null
  image_id=$(docker image inspect --format '{{.Id}}' "$IMAGE")
  say "image $IMAGE = $image_id, built in $(($(ms) - t0)) ms"

  local t1
  t1=$(ms)
  watch_run clean 0 "$bin" run --image "$IMAGE" --out "$OUT/clean"
  go run ./docker/bundlecheck -mode clean -bundle "$OUT/clean/bundle.json" -image "$image_id"
  say "clean run in $(($(ms) - t1)) ms"

  # Read the whole list first: `grep -q` would exit at the first match and, under pipefail, fail the pipe.
  local agent_toggles
  agent_toggles=$("$bin" sabotage list | awk '$2 == "agent" { print $1 }')
  grep -x "$TOGGLE" >/dev/null <<<"$agent_toggles" ||
    die "toggle $TOGGLE is no longer an agent-side toggle (runsuite sabotage list): pick another for the sabotaged container"
  t1=$(ms)
  watch_run sabotaged 1 "$bin" run --image "$IMAGE" --sabotage "$TOGGLE" --out "$OUT/sabotaged"
  go run ./docker/bundlecheck -mode killed -bundle "$OUT/sabotaged/bundle.json" -image "$image_id" -toggle "$TOGGLE"
  say "sabotaged run in $(($(ms) - t1)) ms"

  local left
  left=$(docker ps -aq --filter label=org.extconf.harness)
  [ -z "$left" ] || die "containers left behind: $left"
  say "no container left behind; wall time of the container leg (binary, image, two runs, checks): $(($(ms) - t0)) ms"
}

leg_no_engine() {
  local t0 rc=0 host=""
  if engine_up; then
    # An engine this script did not start stays up; the run is pointed at a socket with no engine instead.
    host=unix://$(mktemp -u)/no-engine.sock
    say "the engine is still up (not ours): checking with DOCKER_HOST=$host"
  fi
  mkdir -p "$OUT"
  local bin
  bin=$(mktemp -d)/runsuite
  go build -o "$bin" ./cmd/runsuite
  t0=$(ms)
  DOCKER_HOST=${host:-${DOCKER_HOST:-}} timeout 60 "$bin" run --image "$IMAGE" --out "$OUT/no-engine" \
    >"$OUT/no-engine.stdout" 2>"$OUT/no-engine.stderr" || rc=$?
  local took=$(($(ms) - t0))
  [ "$rc" = 1 ] || die "no engine: exit $rc, want 1"
  [ "$took" -le 15000 ] || die "no engine: took $took ms, bound 15000 ms (probe 10 s)"
  go run ./docker/bundlecheck -mode blocked -bundle "$OUT/no-engine/bundle.json"
  say "no engine: exit 1 in $took ms (bound 15 s), every selected row blocked: $(grep -m1 'no container engine' "$OUT/no-engine.stderr")"
}

case "${1:-}" in
engine-start) engine_start ;;
engine-stop) engine_stop ;;
run) leg_run ;;
no-engine) leg_no_engine ;;
*) die "usage: $0 engine-start|run|engine-stop|no-engine" ;;
esac
