#!/usr/bin/env bash
# `runsuite version` names the source in each way a user builds it (issue 41), checked on real binaries built
# from a clean clone of HEAD:
#   1. the image's build (docker/build-harness.sh): -buildvcs=false, the commit stamped with -ldflags -X;
#   2. go build in a checkout (-buildvcs=true): the toolchain's VCS settings;
#   3. go install github.com/extconf/extconf/cmd/runsuite@VERSION: HEAD published at its pseudo-version in a
#      file:// proxy (scripts/modproxy), dependencies from this machine's module cache (offline), a fresh
#      GOMODCACHE; the binary carries the module version and no VCS data.
# About 1-3 minutes (the install compiles the module again under its versioned path).
#   scripts/version-builds.sh [--skip-install]
set -euo pipefail
cd "$(dirname "$0")/.."
say() { echo "version builds: $*"; }
die() {
  echo "version builds: FAIL: $*" >&2
  exit 1
}
skip_install=${1:-}

tmp=$(mktemp -d)
trap 'chmod -R u+w "$tmp" 2>/dev/null; rm -rf "$tmp"' EXIT
git clone -q "$PWD" "$tmp/src"
rev=$(git -C "$tmp/src" rev-parse HEAD)
stamp="-X github.com/extconf/extconf/harness/evidence.stampCommit=$rev -X github.com/extconf/extconf/harness/evidence.stampModified=false"

# field BIN EXPR: one member of `runsuite version --json`'s harness.build, printed by a Go template-free jq stand-in.
field() { "$1" version --json | go run ./scripts/jsonfield "$2"; }

check() { # NAME BIN KIND ID [MODULE]
  local name=$1 bin=$2 kind=$3 id=$4 module=${5:-}
  local got_kind got_id got_module
  got_kind=$(field "$bin" harness.build.kind)
  got_id=$(field "$bin" harness.build.id)
  got_module=$(field "$bin" harness.build.module)
  [ "$got_kind" = "$kind" ] && [ "$got_id" = "$id" ] ||
    die "$name: build $got_kind $got_id, want $kind $id ($("$bin" version | sed -n 2p))"
  [ -z "$module" ] || [ "$got_module" = "$module" ] || die "$name: module $got_module, want $module"
  say "$name: $("$bin" version | sed -n '2p;3p' | tr -s ' ' | paste -sd';')"
}

(cd "$tmp/src" && GOFLAGS=-buildvcs=false CGO_ENABLED=0 go build -trimpath -ldflags="-s -w $stamp" -o "$tmp/image-build" ./cmd/runsuite)
check "image build (ldflags)" "$tmp/image-build" commit "$rev"

(cd "$tmp/src" && GOFLAGS=-buildvcs=true go build -o "$tmp/vcs-build" ./cmd/runsuite)
check "go build in a checkout (VCS)" "$tmp/vcs-build" commit "$rev"

[ "$skip_install" != --skip-install ] || exit 0
when=$(TZ=UTC git -C "$tmp/src" log -1 --date=format-local:%Y%m%d%H%M%S --format=%cd)
version="v0.0.0-$when-${rev:0:12}"
go run ./scripts/modproxy -dir "$tmp/src" -out "$tmp/proxy" -version "$version"
cache=$(go env GOMODCACHE) # the dependencies, offline: a module cache's download directory is a GOPROXY layout
t0=$(date +%s)
GOMODCACHE="$tmp/modcache" GOPROXY="file://$tmp/proxy,file://$cache/cache/download" GOSUMDB=off \
  GOFLAGS=-modcacherw GOBIN="$tmp/bin" timeout 900 go install -trimpath "github.com/extconf/extconf/cmd/runsuite@$version"
say "go install …@$version in $(($(date +%s) - t0)) s"
check "go install …@version (module)" "$tmp/bin/runsuite" commit "${rev:0:12}" "$version"
