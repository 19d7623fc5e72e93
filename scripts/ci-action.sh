#!/usr/bin/env bash
# The logic of the GitHub Action (action.yml) and of the GitLab recipe's outcome: certify one agent, verify and
# classify its bundle, and decide whether the CI step fails. Usable from any CI as it is:
#
#   EXTCONF_TARGET=https://agent.example/ EXTCONF_CONFIG=extconf/target.json scripts/ci-action.sh
#
# Environment: EXTCONF_TARGET (card URL or origin; required), EXTCONF_CONFIG (target configuration file, whose
# secrets are {"fromEnv": "VAR"}), EXTCONF_SUITES (document ids, comma separated; default all), EXTCONF_FAIL_ON
# (failed: only a failed agent fails the step; incomplete: a run that graded nothing or could not finish fails it
# too; default failed), EXTCONF_OUT (default extconf-results), EXTCONF_RUNSUITE (the runsuite command; default
# runsuite on PATH), EXTCONF_IMAGE (run the harness image instead: the working directory is mounted at the same
# path, and each variable the configuration names with fromEnv is passed by name, no other).
#
# Writes OUT/agent/bundle.json (+ transcript), OUT/agent/junit.xml (one case per row), OUT/agent/report.html,
# and OUT/index.json, index.html, junit.xml (the bundle verified and classified by `runsuite index`).
# Outputs (to $GITHUB_OUTPUT when set, and on stdout): status (passed|failed|incomplete|interrupted|error),
# exit-code, bundle, junit, html.
# Exit status: 0 when the step passes under fail-on, else runsuite's (1 failed, 2 usage, 3 harness defect or
# unverifiable bundle, 4 incomplete, 130 interrupted).
set -euo pipefail
target=${EXTCONF_TARGET:?EXTCONF_TARGET: the card URL or origin of the agent}
fail_on=${EXTCONF_FAIL_ON:-failed}
out=${EXTCONF_OUT:-extconf-results}
read -r -a runsuite <<<"${EXTCONF_RUNSUITE:-runsuite}"
if [ -n "${EXTCONF_IMAGE:-}" ]; then
  runsuite=(docker run --rm --network host -u "$(id -u):$(id -g)" -v "$PWD:$PWD" -w "$PWD")
  if [ -n "${EXTCONF_CONFIG:-}" ]; then
    for v in $(grep -o '"fromEnv"[[:space:]]*:[[:space:]]*"[A-Za-z_][A-Za-z0-9_]*"' "$EXTCONF_CONFIG" | sed 's/.*"\([^"]*\)"$/\1/' | sort -u); do
      runsuite+=(-e "$v")
    done
  fi
  runsuite+=("$EXTCONF_IMAGE")
fi
case $fail_on in failed | incomplete) ;; *)
  echo "extconf: fail-on '$fail_on': want failed or incomplete" >&2
  exit 2
  ;;
esac

mkdir -p "$out"
# The run's reports go beside its bundle: OUT itself receives the index (index.json, index.html, junit.xml).
args=(run --target "$target" --out "$out/agent" --junit "$out/agent/junit.xml" --html "$out/agent/report.html" --force)
[ -z "${EXTCONF_CONFIG:-}" ] || args+=(--config "$EXTCONF_CONFIG")
[ -z "${EXTCONF_SUITES:-}" ] || args+=(--suite "$EXTCONF_SUITES")
run_rc=0
"${runsuite[@]}" "${args[@]}" || run_rc=$?

# The outcome is the bundle's, once it verifies: runsuite index verifies it and exits with its outcome.
code=0
if [ "$run_rc" = 2 ]; then
  code=2 # usage or configuration: nothing ran
else
  "${runsuite[@]}" index "$out" >"$out/index.txt" || code=$?
  cat "$out/index.txt"
fi
case $code in
0) status=passed ;;
1) status=failed ;;
4) status=incomplete ;;
130) status=interrupted ;;
*) status=error ;;
esac

emit() {
  echo "$1=$2"
  [ -z "${GITHUB_OUTPUT:-}" ] || echo "$1=$2" >>"$GITHUB_OUTPUT"
}
emit status "$status"
emit exit-code "$code"
emit bundle "$out/agent/bundle.json"
emit junit "$out/agent/junit.xml"
emit html "$out/agent/report.html"
if [ -n "${GITHUB_STEP_SUMMARY:-}" ]; then
  printf '### extconf: %s (exit %s)\n\n```\n%s\n```\n' "$status" "$code" "$(cat "$out/index.txt" 2>/dev/null)" >>"$GITHUB_STEP_SUMMARY"
fi

case $code in
0) exit 0 ;;
4) [ "$fail_on" = incomplete ] && exit 4 || {
  echo "extconf: incomplete (nothing graded, or the run could not finish): not failing the step (fail-on: failed)"
  exit 0
} ;;
*) exit "$code" ;;
esac
