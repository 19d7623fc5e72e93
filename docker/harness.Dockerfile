# The extconf harness as an image: runsuite, the CA certificates to reach agents over TLS, nothing else.
#
# No base image and no RUN (nothing is pulled; the legacy builder is enough): docker/build-harness.sh
# cross-compiles the static binary with its commit stamped (-ldflags -X), and stages it, the host's CA bundle and
# two empty directories into a temporary build context.
#
#   docker run --rm -v "$PWD/out:/out" -v "$PWD/target.json:/in/target.json:ro" IMAGE \
#     run --target https://agent.example/ --config /in/target.json --out /out/agent
#
# Runs as 65534 (nobody): a mounted output directory must be writable by it (or pass --user).
FROM scratch
COPY runsuite /usr/local/bin/runsuite
COPY ca-certificates.crt /etc/ssl/certs/ca-certificates.crt
COPY --chown=65534:65534 work /work
COPY --chown=65534:65534 tmp /tmp
ENV PATH=/usr/local/bin SSL_CERT_FILE=/etc/ssl/certs/ca-certificates.crt TMPDIR=/tmp HOME=/work
WORKDIR /work
ARG VERSION=unknown
ARG REVISION=unknown
LABEL org.opencontainers.image.title="extconf harness (runsuite)" \
      org.opencontainers.image.source="https://github.com/extconf/extconf" \
      org.opencontainers.image.version="$VERSION" \
      org.opencontainers.image.revision="$REVISION"
USER 65534:65534
ENTRYPOINT ["runsuite"]
CMD ["help"]
