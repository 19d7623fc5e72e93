#!/usr/bin/env bash
# Interop proof: the official A2A JavaScript SDK client (@a2a-js/sdk 1.3.0) against the mock-agent server core.
# Installs the pinned SDK, builds and starts interop/serve (HTTPS, test CA, signed echo card, and the five reference
# agents), runs interop/js/interop.mjs against the echo card URL and the agents serve listed, stops the server, and
# exits with the script's status.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
work="$(mktemp -d)"
server_pid=""
cleanup() {
  if [[ -n "$server_pid" ]]; then
    kill "$server_pid" 2>/dev/null || true
    wait "$server_pid" 2>/dev/null || true
  fi
  rm -rf "$work"
}
trap cleanup EXIT

(cd "$root/interop/js" && { npm ci --no-audit --no-fund --loglevel=error || npm install --no-audit --no-fund --loglevel=error; } >&2)

(cd "$root" && go build -o "$work/serve" ./interop/serve)
"$work/serve" >"$work/url" 2>"$work/serve.log" &
server_pid=$!

card_url=""
for _ in $(seq 1 300); do
  if grep -qx ready "$work/url" 2>/dev/null; then
    card_url="$(head -n 1 "$work/url")"
    break
  fi
  if ! kill -0 "$server_pid" 2>/dev/null; then
    echo "interop: the server exited early:" >&2
    cat "$work/serve.log" >&2
    exit 1
  fi
  sleep 0.1
done
if [[ -z "$card_url" ]]; then
  echo "interop: the server printed no card URL" >&2
  exit 1
fi
echo "interop: agent card at $card_url" >&2

status=0
NODE_EXTRA_CA_CERTS="$root/fixtures/testpki/ca.pem" node "$root/interop/js/interop.mjs" "$card_url" "$work/url" || status=$?
exit "$status"
