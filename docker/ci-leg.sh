#!/usr/bin/env bash
# CI's container leg (issue 10), in steps .ci/run calls (facts: ../shared/notes/containers.md):
#
#   docker/ci-leg.sh engine-start   install docker.io if missing, start dockerd (vfs, host firewall untouched),
#                                   wait at most 30 s
#   docker/ci-leg.sh run            build the static binary and extconf-mock:ci; run every suite against it
#                                   (exit 0 required), then against one sabotaged container (its targeted rows
#                                   must be executed-fail); watch that no connection leaves loopback
#   docker/ci-leg.sh engine-stop    stop the engine this script started (the PID in /var/run/docker.pid)
#   docker/ci-leg.sh no-engine      with the engine stopped: the same run ends within 15 s, rows blocked, exit 4
#                                   (incomplete: nothing failed)
#   docker/ci-leg.sh selftest       the loopback check's rule on synthetic logs (no engine; `run` calls it first)
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

# The leg's loopback check has two halves:
#  - deterministic: docker/bundlecheck requires every URL of the bundle's transcript (the harness's client records
#    every exchange, dialled or refused, with its redirect hops) to be a loopback literal;
#  - sampled: watch_run below reads sockets every 0.2 s: the harness's own, docker-proxy's (listening and
#    connected) and, inside the container's network namespace, every TCP socket but listeners (TIME-WAIT
#    included, so a connection the container closed stays visible for 60 s; a dial to an unroutable address stays
#    visible in SYN-SENT). Each peer must be loopback, the host's end of the engine's bridge (container side), or
#    the container's own address; anything else fails the leg.
# EXTCONF_CI_LEG_FAKE_PEER=ADDR:PORT (use a documentation range, e.g. 198.51.100.7:443) adds a synthetic
# "container ADDR:PORT" sample to the clean run's log before the check, which must then fail the leg: a negative
# control that sends nothing anywhere. `docker/ci-leg.sh selftest` checks the rule on synthetic logs, no engine.

# watch_run RUN_NAME WANT_EXIT CMD...: runs CMD in the background, samples sockets into $OUT/RUN_NAME.watch, checks.
watch_run() {
  local name=$1 want=$2
  shift 2
  local log=$OUT/$name.watch
  : >"$log"
  "$@" >"$OUT/$name.stdout" 2>"$OUT/$name.stderr" &
  local pid=$! cid line a known=" " cpids=""
  local p
  while kill -0 "$pid" 2>/dev/null; do
    ss -Htanp 2>/dev/null | awk -v p="pid=$pid," '
      index($0, p) { if ($1 == "LISTEN") print "harness-listen", $4; else print "harness", $5, $1; next }
      /"docker-proxy"/ { if ($1 == "LISTEN") print "listen", $4; else print "proxy", $5, $1 }' >>"$log" || true
    # A container is inspected once (its pid and own addresses); the list is read again on every pass so that a
    # second container would be seen too.
    for cid in $(timeout 5 docker ps -q --filter label=org.extconf.harness 2>/dev/null); do
      case $known in *" $cid "*) continue ;; esac
      line=$(timeout 5 docker inspect -f '{{.State.Pid}} {{range .NetworkSettings.Networks}}{{.IPAddress}} {{.GlobalIPv6Address}} {{end}}' "$cid" 2>/dev/null) || continue
      set -- $line
      [ "${1:-0}" != 0 ] || continue
      known="$known$cid "
      cpids="$cpids $1"
      p=$1
      shift
      for a in "$@"; do echo "self $a $cid"; done >>"$log"
      nsenter -t "$p" -n ip -4 route show default 2>/dev/null | awk -v c="$cid" '$1 == "default" && $2 == "via" { print "route", $3, c }' >>"$log" || true
    done
    for p in $cpids; do
      nsenter -t "$p" -n ss -Htan 2>/dev/null | awk '$1 != "LISTEN" { print "container", $5, $1 }' >>"$log" || true
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
  if [ "$name" = clean ] && [ -n "${EXTCONF_CI_LEG_FAKE_PEER:-}" ]; then
    say "EXTCONF_CI_LEG_FAKE_PEER: a synthetic sample with peer $EXTCONF_CI_LEG_FAKE_PEER is added to the check's input (nothing was dialled); the check must fail"
    echo "container $EXTCONF_CI_LEG_FAKE_PEER SYN-SENT synthetic" >>"$log"
  fi
  bridge_end "$log"
  check_watch "$name" "$log" "$BRIDGE"
}

# bridge_end LOG: sets BRIDGE to the host's end of the engine's bridge and BRIDGE_FROM to where it was read: the
# bridge interface's address (docker0 unless the engine names another), else the default route seen inside a
# container's namespace during the run, else `docker network inspect` (whose IPAM gateway is empty on Debian's
# 20.10 engine). The address must be one of this host's own, or it is not used.
bridge_end() {
  local log=$1 ifname route
  BRIDGE="" BRIDGE_FROM=""
  ifname=$(timeout 5 docker network inspect bridge -f '{{index .Options "com.docker.network.bridge.name"}}' 2>/dev/null || true)
  ifname=${ifname:-docker0}
  route=$(awk '$1 == "route" { print $2; exit }' "$log")
  BRIDGE=$(ip -o -4 addr show dev "$ifname" 2>/dev/null | awk '{ sub(/\/.*/, "", $4); print $4; exit }' || true)
  BRIDGE_FROM="interface $ifname"
  if [ -z "$BRIDGE" ] && [ -n "$route" ]; then
    BRIDGE=$route BRIDGE_FROM="the container's default route"
  fi
  if [ -z "$BRIDGE" ]; then
    BRIDGE=$(timeout 5 docker network inspect bridge -f '{{range .IPAM.Config}}{{.Gateway}}{{end}}' 2>/dev/null || true)
    BRIDGE_FROM="docker network inspect bridge"
  fi
  if [ -z "$BRIDGE" ]; then
    BRIDGE_FROM="none found (interface $ifname, container route, docker network inspect)"
  elif ! ip -o addr show 2>/dev/null | awk '{ sub(/\/.*/, "", $4); print $4 }' | grep -qxF "$BRIDGE"; then
    BRIDGE_FROM="$BRIDGE from $BRIDGE_FROM is not an address of this host: not accepted"
    BRIDGE=""
  fi
  [ -z "$route" ] || [ "$route" = "$BRIDGE" ] || BRIDGE_FROM="$BRIDGE_FROM; the container's default route $route differs"
  [ -z "$route" ] || [ "$route" != "$BRIDGE" ] || [ "$BRIDGE_FROM" = "the container's default route" ] ||
    BRIDGE_FROM="$BRIDGE_FROM, the container's default route agrees"
}

# check_watch NAME LOG BRIDGE: every sampled peer must be loopback (all kinds), the container's own address (for
# docker-proxy and inside the container) or BRIDGE (inside the container); any other line or kind fails the leg.
check_watch() {
  local name=$1 log=$2 br=$3 bad
  bad=$(awk -v br="$br" '
    function host(a) { sub(/:[^:]*$/, "", a); gsub(/^\[|\]$/, "", a); sub(/^::ffff:/, "", a); return a }
    function lo(h) { return h ~ /^127\.[0-9]+\.[0-9]+\.[0-9]+$/ || h == "::1" }
    $1 == "self" { self[$2] = 1; next }
    $1 == "route" { next }
    { n++; line[n] = $0; kind[n] = $1; h[n] = host($2) }
    END {
      for (i = 1; i <= n; i++) {
        k = kind[i]; x = h[i]
        if (k == "harness" || k == "harness-listen" || k == "listen") ok = lo(x)
        else if (k == "proxy") ok = lo(x) || (x in self)
        else if (k == "container") ok = lo(x) || (x in self) || (br != "" && x == br)
        else ok = 0
        if (!ok) print line[i]
      }
    }' "$log" | sort -u)
  [ -z "$bad" ] || die "$name: sockets off loopback (host's bridge end ${br:-unknown}: ${BRIDGE_FROM:-given}): $(echo "$bad" | head -20 | tr '\n' ';')"
  [ "$(awk '$1=="harness"' "$log" | wc -l)" -gt 0 ] || die "$name: no harness connection was seen: the watch saw nothing"
  peers() { awk -v k="$1" '$1 == k { a = $2; if (k != "self") sub(/:[^:]*$/, "", a); gsub(/^\[|\]$/, "", a); sub(/^::ffff:/, "", a); print a }' "$log" | sort -u | tr '\n' ' '; }
  say "$name: loopback only: $(awk '$1=="harness"' "$log" | wc -l) harness samples, peers $(peers harness);" \
    "docker-proxy listening on $(peers listen)only, $(awk '$1=="proxy"' "$log" | wc -l) proxy samples, peers $(peers proxy);" \
    "$(awk '$1=="container"' "$log" | wc -l) samples inside the container, peers $(peers container)(container's own $(peers self| sed 's/ $//'), host's bridge end ${br:-?} from ${BRIDGE_FROM:-?})"
}

# selftest: the check's rule on synthetic logs (documentation-range addresses; nothing is dialled, no engine).
leg_selftest() {
  local d ok
  d=$(mktemp -d)
  cat >"$d/good" <<'LOG'
self 172.17.0.2 c1
route 172.17.0.1 c1
harness 127.0.0.1:9408 ESTAB
harness [::ffff:127.0.0.1]:9400 ESTAB
harness-listen 127.0.0.1:40000
listen 127.0.0.1:9423
proxy 127.0.0.1:51234 ESTAB
proxy 172.17.0.2:9408 ESTAB
container 172.17.0.1:36998 TIME-WAIT
container 127.0.0.1:9401 ESTAB
container 172.17.0.2:9402 ESTAB
LOG
  BRIDGE_FROM=selftest check_watch selftest-good "$d/good" 172.17.0.1 >/dev/null
  for ok in "container 198.51.100.7:443 SYN-SENT" "container 172.17.0.9:80 ESTAB" "proxy 203.0.113.5:9400 ESTAB" \
    "harness 192.0.2.10:443 ESTAB" "listen 0.0.0.0:9400" "harness-listen [::]:8080" "container [2001:db8::1]:443 SYN-SENT" "udp 127.0.0.1:53"; do
    { cat "$d/good"; echo "$ok"; } >"$d/bad"
    if (BRIDGE_FROM=selftest check_watch selftest-bad "$d/bad" 172.17.0.1) >/dev/null 2>&1; then
      die "selftest: the check accepted '$ok'"
    fi
  done
  # Without a known bridge end, the container's connections from the host's bridge are not accepted either.
  if (BRIDGE_FROM=selftest check_watch selftest-nobridge "$d/good" "") >/dev/null 2>&1; then
    die "selftest: the check accepted a bridge peer with no bridge end known"
  fi
  rm -rf "$d"
  say "selftest: the loopback check accepts loopback, the bridge end and the container's own address, rejects 9 off-host samples"
}

leg_run() {
  engine_up || die "no engine: run '$0 engine-start' first"
  leg_selftest
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
  [ "$rc" = 4 ] || die "no engine: exit $rc, want 4 (incomplete)"
  [ "$took" -le 15000 ] || die "no engine: took $took ms, bound 15000 ms (probe 10 s)"
  go run ./docker/bundlecheck -mode blocked -bundle "$OUT/no-engine/bundle.json"
  say "no engine: exit 4 (incomplete) in $took ms (bound 15 s), every selected row blocked: $(grep -m1 'no container engine' "$OUT/no-engine.stderr")"
}

case "${1:-}" in
engine-start) engine_start ;;
engine-stop) engine_stop ;;
run) leg_run ;;
no-engine) leg_no_engine ;;
selftest) leg_selftest ;;
*) die "usage: $0 engine-start|run|engine-stop|no-engine|selftest" ;;
esac
