#!/usr/bin/env bash
# CI's container leg for the harness image (issue 41); the engine must be up (docker/ci-leg.sh engine-start).
#
#   docker/harness-leg.sh image     build extconf-harness:ci (docker/build-harness.sh); its labels and
#                                   `runsuite version` name this commit; the image, as its default non-root user
#                                   and on the host's network (loopback only), certifies the reference agents
#                                   (`runsuite mock` on the host) into a mounted directory; the bundle verifies
#                                   on the host and names the same commit
#   docker/harness-leg.sh job-sim   the Kubernetes Indexed Job of deploy/kubernetes/ under Docker: the image run
#                                   SHARDS times with JOB_COMPLETION_INDEX=0..SHARDS-1 and the Job's arguments,
#                                   all writing to one mounted bundles directory, then the index step (the image
#                                   running `runsuite index`); every bundle verifies, outcomes as planted
#   docker/harness-leg.sh all       both
set -euo pipefail
cd "$(dirname "$0")/.."

IMAGE=extconf-harness:ci
OUT=$PWD/evidence/runs/ci-harness
TOGGLE=terms.digest-uppercase-hex # agent-side: the sabotaged reference agents fail TE-3.3b
SHARDS=2
# The Job's container arguments (deploy/kubernetes/job.yaml; TestKubernetesManifests checks they are the same).
JOB_ARGS=(batch /targets/targets.json --shard-of 2 --out /bundles --no-index --record-only --parallel 2)

say() { echo "harness leg: $*"; }
die() {
  echo "harness leg: FAIL: $*" >&2
  exit 1
}
ms() { date +%s%3N; }
field() { go run ./scripts/jsonfield "$1"; }

BIN=""
host_bin() {
  [ -n "$BIN" ] && return
  BIN=$OUT/bin/runsuite
  mkdir -p "$OUT/bin"
  go build -o "$BIN" ./cmd/runsuite
}

# start_mock NAME [ARGS...]: the reference agents on the host's loopback, in the background; sets MOCK_CARD (the
# terms card URL) and writes $OUT/in/NAME.json, their announced configuration with the test CA as caFile, as the
# image reads it ($CA_PATH: the inputs are mounted at /in, or at /targets as the Job mounts its ConfigMap).
# Bounded: 60 s to announce.
CA_PATH=/in/ca.pem
MOCK_PIDS=()
stop_mocks() {
  local p
  for p in "${MOCK_PIDS[@]}"; do kill "$p" 2>/dev/null || true; done
  for p in "${MOCK_PIDS[@]}"; do wait "$p" 2>/dev/null || true; done
  MOCK_PIDS=()
}
trap stop_mocks EXIT
start_mock() {
  local name=$1 i
  shift
  host_bin
  "$BIN" mock "$@" >"$OUT/$name.mock" 2>"$OUT/$name.mock.err" &
  MOCK_PIDS+=($!)
  for i in $(seq 1 240); do
    grep -q '^# ready' "$OUT/$name.mock" 2>/dev/null && break
    kill -0 "${MOCK_PIDS[-1]}" 2>/dev/null || die "mock $name exited: $(tail -3 "$OUT/$name.mock.err")"
    sleep 0.25
  done
  grep -q '^# ready' "$OUT/$name.mock" || die "mock $name did not announce within 60 s"
  MOCK_CARD=$(awk -F'\t' '$1 == "terms" { print $2 }' "$OUT/$name.mock")
  case $MOCK_CARD in https://127.0.0.1:*) ;; *) die "mock $name: terms card '$MOCK_CARD' is not on 127.0.0.1" ;; esac
  mkdir -p "$OUT/in"
  grep '^# config' "$OUT/$name.mock" | cut -f2- | go run ./docker/harnessconf -ca "$CA_PATH" >"$OUT/in/$name.json"
  cp fixtures/testpki/ca.pem "$OUT/in/ca.pem"
  chmod -R a+rX "$OUT/in"
}

# in_image ARGS...: the harness image on the host's network (the agents are on its loopback), inputs read-only,
# one writable output directory, as the image's own user; bounded at 5 minutes.
in_image() {
  timeout 300 docker run --rm --network host -v "$OUT/in:/in:ro" -v "$OUT/bundles:/bundles" "$@"
}

leg_image() {
  local t0 revision version labels got
  t0=$(ms)
  rm -rf "$OUT"
  mkdir -p "$OUT/bundles"
  chmod 0777 "$OUT/bundles" # the image runs as 65534
  timeout 600 docker/build-harness.sh "$IMAGE" || die "the image did not build"
  revision=$(git rev-parse HEAD)
  version=$(sed -n 's/^const Version = "\(.*\)"$/\1/p' harness/evidence/bundle.go)
  labels=$(docker image inspect --format '{{index .Config.Labels "org.opencontainers.image.version"}} {{index .Config.Labels "org.opencontainers.image.revision"}} {{.Config.User}}' "$IMAGE")
  [ "$labels" = "$version $revision 65534:65534" ] || die "labels/user '$labels', want '$version $revision 65534:65534'"
  got=$(timeout 60 docker run --rm "$IMAGE" version --json | field harness.build.id)
  [ "$got" = "$revision" ] || die "runsuite version in the image names build '$got', want $revision"
  say "image $IMAGE built in $(($(ms) - t0)) ms: labels version $version revision $revision, user 65534, version --json names the commit"

  t0=$(ms)
  start_mock ref
  local rc=0
  in_image "$IMAGE" run --target "$MOCK_CARD" --config /in/ref.json --out /bundles/image-run --quiet \
    >"$OUT/image-run.stdout" 2>"$OUT/image-run.stderr" || rc=$?
  stop_mocks
  [ "$rc" = 0 ] || {
    tail -30 "$OUT/image-run.stderr" "$OUT/image-run.stdout" >&2
    die "the image's run against the reference agents exited $rc, want 0"
  }
  "$BIN" verify "$OUT/bundles/image-run/bundle.json" >"$OUT/image-run.verify" || {
    cat "$OUT/image-run.verify" >&2
    die "the bundle the image wrote does not verify"
  }
  got=$(field harness.build.id <"$OUT/bundles/image-run/bundle.json")
  [ "$got" = "$revision" ] || die "the bundle names build '$got', want $revision"
  say "the image certified the reference agents (exit 0) in $(($(ms) - t0)) ms; its bundle verifies on the host: $(tail -1 "$OUT/image-run.verify")"
}

leg_job_sim() {
  local t0 i pids=() rc
  docker image inspect "$IMAGE" >/dev/null 2>&1 || die "no image $IMAGE: run '$0 image' first"
  t0=$(ms)
  rm -rf "$OUT/bundles" "$OUT/targets"
  mkdir -p "$OUT/bundles" "$OUT/targets"
  chmod 0777 "$OUT/bundles"
  # Three reference-agent sets (one sabotaged) and a dead address: each pod runs its shard of the list.
  CA_PATH=/targets/ca.pem
  start_mock clean-a
  local a=$MOCK_CARD
  start_mock clean-b
  local b=$MOCK_CARD
  start_mock sabotaged --sabotage "$TOGGLE"
  local s=$MOCK_CARD
  cat >"$OUT/in/targets.json" <<JSON
{"targets": [
  {"name": "clean-a", "target": "$a", "config": "clean-a.json"},
  {"name": "sabotaged", "target": "$s", "config": "sabotaged.json"},
  {"name": "clean-b", "target": "$b", "config": "clean-b.json"},
  {"name": "dead", "target": "https://127.0.0.1:9/"}
]}
JSON
  chmod a+r "$OUT/in/targets.json"
  # As the Job's pods: at once, each with its completion index, the Job's arguments, the targets at /targets.
  for i in $(seq 0 $((SHARDS - 1))); do
    timeout 600 docker run --rm --network host -e JOB_COMPLETION_INDEX="$i" -v "$OUT/in:/targets:ro" \
      -v "$OUT/bundles:/bundles" "$IMAGE" "${JOB_ARGS[@]}" >"$OUT/pod-$i.log" 2>&1 &
    pids+=($!)
  done
  for i in "${!pids[@]}"; do
    rc=0
    wait "${pids[$i]}" || rc=$?
    [ "$rc" = 0 ] || {
      tail -20 "$OUT/pod-$i.log" >&2
      die "pod $i exited $rc, want 0 (--record-only: every bundle written and verified)"
    }
  done
  stop_mocks
  # The index step (deploy/kubernetes/index-job.yaml): the image indexes the volume.
  rc=0
  timeout 300 docker run --rm -v "$OUT/bundles:/bundles" "$IMAGE" index /bundles >"$OUT/index.stdout" 2>&1 || rc=$?
  cat "$OUT/index.stdout"
  [ "$rc" != 0 ] && [ "$rc" != 3 ] && [ "$rc" != 2 ] || die "index exited $rc: want the worst outcome of a failed agent (1 or 4), no defect"
  local idx=$OUT/bundles/index.json
  [ "$(field statuses.passed <"$idx")" = 2 ] || die "index: want 2 passed agents: $(field statuses <"$idx")"
  [ -z "$(field statuses.unverified <"$idx")$(field statuses.missing <"$idx")" ] || die "index: a bundle is missing or does not verify: $(field statuses <"$idx")"
  for i in clean-a clean-b sabotaged dead; do
    "$BIN" verify "$OUT/bundles/$i/bundle.json" >/dev/null || die "$i: the bundle does not verify on the host"
  done
  grep -Eq '"id":"TE-3.3b"[^}]*"verdict":"executed-fail"' "$OUT/bundles/sabotaged/bundle.json" ||
    die "sabotaged: TE-3.3b is not executed-fail under $TOGGLE"
  say "Indexed Job under Docker: $SHARDS pods (JOB_COMPLETION_INDEX 0..$((SHARDS - 1))) wrote 4 bundles, the index step verified them all: $(field statuses <"$idx"), exit $rc; $(($(ms) - t0)) ms"
}

case "${1:-}" in
image) leg_image ;;
job-sim) host_bin && leg_job_sim ;;
all) leg_image && leg_job_sim ;;
*) die "usage: $0 image|job-sim|all" ;;
esac
