#!/usr/bin/env bash
# Build the harness image (docker/harness.Dockerfile): the static runsuite binary, CGO off, its commit stamped
# at link time (`runsuite version` names it even without VCS data), in a FROM scratch image with the host's CA
# bundle, labelled with the harness version and the commit. Nothing is pulled.
#   docker/build-harness.sh [TAG]         default TAG extconf-harness:dev
#   docker/build-harness.sh --binary OUT  only the binary (the exact build the image holds; no engine needed)
set -euo pipefail
cd "$(dirname "$0")/.."
die() {
  echo "build-harness: $*" >&2
  exit 1
}
binary_only=""
if [ "${1:-}" = --binary ]; then
  binary_only=${2:?--binary OUT}
fi
tag=${1:-extconf-harness:dev}
revision=$(git rev-parse HEAD 2>/dev/null || echo unknown)
modified=false
[ -z "$(git status --porcelain --untracked-files=no 2>/dev/null)" ] || modified=true
version=$(sed -n 's/^const Version = "\(.*\)"$/\1/p' harness/evidence/bundle.go)
[ -n "$version" ] || die "no 'const Version' in harness/evidence/bundle.go"
ca=${EXTCONF_CA_BUNDLE:-/etc/ssl/certs/ca-certificates.crt}
[ -s "$ca" ] || die "no CA bundle at $ca (install ca-certificates, or set EXTCONF_CA_BUNDLE)"

build() { # OUT GOARCH
  local pkg=github.com/extconf/extconf/harness/evidence
  CGO_ENABLED=0 GOOS=linux GOARCH=$2 GOFLAGS=-buildvcs=false go build -trimpath \
    -ldflags="-s -w -X $pkg.stampCommit=$revision -X $pkg.stampModified=$modified" -o "$1" ./cmd/runsuite
}
if [ -n "$binary_only" ]; then
  build "$binary_only" "$(go env GOARCH)"
  exit 0
fi

arch=$(docker version --format '{{.Server.Arch}}' 2>/dev/null) || die "no container engine answers (docker version)"
ctx=$(mktemp -d)
trap 'rm -rf "$ctx"' EXIT
build "$ctx/runsuite" "$arch"
cp docker/harness.Dockerfile "$ctx/Dockerfile"
cp "$ca" "$ctx/ca-certificates.crt"
mkdir -p "$ctx/work" "$ctx/tmp"
touch "$ctx/work/.keep" "$ctx/tmp/.keep" # an empty source directory is not reliably created by COPY
chmod 1777 "$ctx/tmp"
# The legacy builder (DOCKER_BUILDKIT=0) prints a deprecation notice on every build: shown only on failure.
out=$(DOCKER_BUILDKIT=0 docker build --quiet --build-arg "VERSION=$version" --build-arg "REVISION=$revision" \
  -t "$tag" "$ctx" 2>&1) || {
  printf '%s\n' "$out" >&2
  die "docker build failed"
}
echo "$tag $(docker image inspect --format '{{.Id}}' "$tag") version $version revision $revision (modified: $modified)"
