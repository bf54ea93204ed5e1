# syntax=docker/dockerfile:1
# layoutd container image.
#
#   docker build -t layoutd .
#   docker run --rm -p 8080:8080 -v layoutd-data:/data layoutd
#   curl -s localhost:8080/solve -H 'content-type: application/json' -d '{"views":["red"],"constraints":["H:|-[red]-|","V:|-[red]-|"],"container":{"width":320,"height":480}}'
#
# Stage 1 builds the release binary with the official Swift image (Swift 6.3 on Debian
# bookworm, the toolchain the project targets). `--static-swift-stdlib` links the Swift
# runtime, Foundation and Dispatch statically, so stage 2 needs only the C libraries:
# glibc, libstdc++ and libgcc (in debian:bookworm-slim already), SQLite (libsqlite3-0) and
# libpq, PostgreSQL's client library (libpq5, which brings its own dependencies).
# tests/e2e/check_docker_libs.py checks that claim against a built binary with ldd.

# ---------------------------------------------------------------- build
FROM swift:6.3-bookworm AS build

# Unpinned on purpose: Debian stable only ships security fixes within a release, and a
# pinned version disappears from the archive as soon as one lands (the base tag is the pin).
# hadolint ignore=DL3008
RUN apt-get update \
    && apt-get install -y --no-install-recommends libsqlite3-dev libpq-dev \
    && rm -rf /var/lib/apt/lists/*

WORKDIR /build
COPY Package.swift ./
COPY Sources ./Sources
COPY Tests ./Tests

# The binary (not stripped: Swift's crash backtraces keep their function names) and any
# SwiftPM resource bundles (*.resources, which Bundle.module looks up next to
# the executable) go to /staging.
RUN swift build -c release --product layoutd --static-swift-stdlib \
    && bin="$(swift build -c release --show-bin-path)" \
    && mkdir -p /staging \
    && cp "$bin/layoutd" /staging/ \
    && find -L "$bin/" -maxdepth 1 -name '*.resources' -exec cp -Ra {} /staging/ \;

# ---------------------------------------------------------------- run
FROM debian:bookworm-slim

# libsqlite3-0: the result cache and the group store. libpq5: the PostgreSQL group store.
# curl: the HEALTHCHECK below.
# Unpinned for the reason given in the build stage.
# hadolint ignore=DL3008
RUN apt-get update \
    && apt-get install -y --no-install-recommends libsqlite3-0 libpq5 curl \
    && rm -rf /var/lib/apt/lists/* \
    && groupadd --system --gid 10001 layoutd \
    && useradd --system --uid 10001 --gid layoutd --home-dir /data --no-create-home \
        --shell /usr/sbin/nologin layoutd \
    && mkdir -p /data \
    && chown layoutd:layoutd /data

COPY --from=build /staging/ /app/

# Listen on every interface inside the container; keep the database on the volume.
ENV LAYOUTD_HOST=0.0.0.0 \
    LAYOUTD_PORT=8080 \
    LAYOUTD_DB=/data/layoutd.db

VOLUME ["/data"]
EXPOSE 8080
WORKDIR /data
USER 10001:10001

# /healthz answers 200 while the process serves HTTP (it does not touch the database).
# A shell expands LAYOUTD_PORT at run time, so `-e LAYOUTD_PORT=...` keeps it right.
HEALTHCHECK --interval=30s --timeout=3s --start-period=10s --retries=3 \
    CMD ["/bin/sh", "-c", "curl -fsS \"http://127.0.0.1:${LAYOUTD_PORT}/healthz\" || exit 1"]

# SIGTERM: stop accepting, finish in-flight requests, close the database, exit 0.
STOPSIGNAL SIGTERM
ENTRYPOINT ["/app/layoutd"]
CMD ["serve"]
