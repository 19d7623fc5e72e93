#!/usr/bin/env bash
# Build the reference-agent image: the static runsuite binary (CGO off, cross-compiled on the host), then a
# FROM scratch image around it with the engine's legacy builder. Nothing is pulled.
#   docker/build.sh [TAG]        default TAG extconf-mock:dev
set -euo pipefail
cd "$(dirname "$0")/.."
tag="${1:-extconf-mock:dev}"
arch="$(docker version --format '{{.Server.Arch}}' 2>/dev/null || go env GOARCH)"
mkdir -p docker/bin
CGO_ENABLED=0 GOOS=linux GOARCH="$arch" go build -trimpath -ldflags='-s -w' -o docker/bin/runsuite ./cmd/runsuite
# The legacy builder (DOCKER_BUILDKIT=0) prints a deprecation notice on every build: shown only on failure.
out="$(DOCKER_BUILDKIT=0 docker build --quiet -t "$tag" docker 2>&1)" || { printf '%s\n' "$out" >&2; exit 1; }
echo "$tag $(docker image inspect --format '{{.Id}}' "$tag")"
