# syntax=docker/dockerfile:1
# layoutd container image.
#
#   DOCKER_BUILDKIT=1 docker build -t layoutd .
#   docker run --rm -p 8080:8080 -v layoutd-data:/data -e LAYOUTD_API_TOKEN=change-me layoutd
#   curl -s localhost:8080/solve -H 'content-type: application/json' -d '{"views":["red"],"constraints":["H:|-[red]-|","V:|-[red]-|"],"container":{"width":320,"height":480}}'
#
# The server listens on 0.0.0.0 in the container, so without LAYOUTD_API_TOKEN group writes
# (PUT/DELETE /groups/...) answer 403; LAYOUTD_ALLOW_ANONYMOUS_WRITES=1 opens them to anyone
# who can reach the port. A host directory mounted at /data (-v /srv/layoutd:/data) must be
# writable by uid 10001, the user the server runs as: chown 10001:10001 /srv/layoutd.
#
# Stage 1 builds the release binary with the official Swift image (Swift 6.3 on Debian
# bookworm, the toolchain the project targets). `--static-swift-stdlib` links the Swift
# runtime, Foundation and Dispatch statically, so stage 2 needs only the C libraries:
# glibc, libstdc++ and libgcc (in debian:bookworm-slim already), SQLite (libsqlite3-0) and
# OpenSSL's libcrypto (libssl3, which ships libcrypto.so.3), libpq, PostgreSQL's client
# library (libpq5, which brings its own dependencies), libxml2 (Interface Builder documents),
# HarfBuzz (libharfbuzz0b) and ICU (libicu72), plus the font files of the built-in families
# (fonts-inter, fonts-dejavu-core, fonts-liberation2), which the server reads from
# /usr/share/fonts.
# integration/e2e/check_docker_libs.py checks that claim against a built binary with ldd, and
# that the runtime stage copies Swift's static crash backtracer and arms it.

# ---------------------------------------------------------------- build
# The headers of the system-library targets: libsqlite3-dev (CSQLite), libssl-dev (CCrypto),
# libpq-dev (CPostgreSQL), libxml2-dev (CLibXML2), libharfbuzz-dev (CHarfBuzz),
# libicu-dev (CICUBreak).
FROM swift:6.3-bookworm AS build

# Unpinned on purpose: Debian stable only ships security fixes within a release, and a
# pinned version disappears from the archive as soon as one lands (the base tag is the pin).
# hadolint ignore=DL3008
RUN apt-get update \
    && apt-get install -y --no-install-recommends libsqlite3-dev libssl-dev libpq-dev libxml2-dev libharfbuzz-dev libicu-dev \
    && rm -rf /var/lib/apt/lists/*

WORKDIR /build
COPY Package.swift openapi.yaml ./
COPY Sources ./Sources
COPY Tests ./Tests

# The binary (not stripped: the backtracer below names functions from its symbols) and any
# SwiftPM resource bundles (*.resources, which Bundle.module looks up next to
# the executable) go to /staging. .build is a BuildKit cache mount: rebuilds after a source
# change compile only what changed; it is not part of any layer, hence the copy out.
RUN --mount=type=cache,target=/build/.build \
    swift build -c release --product layoutd --static-swift-stdlib \
    && bin="$(swift build -c release --show-bin-path)" \
    && mkdir -p /staging \
    && cp "$bin/layoutd" /staging/ \
    && find -L "$bin/" -maxdepth 1 -name '*.resources' -exec cp -Ra {} /staging/ \;

# ---------------------------------------------------------------- run
FROM debian:bookworm-slim

# libsqlite3-0: the result cache and the group store. libssl3: libcrypto.so.3, whose
# SHA-256 names cache entries. libpq5: the PostgreSQL group store. libxml2: the reader of
# Interface Builder documents. libharfbuzz0b and libicu72: text shaping and line breaking;
# the fonts-* packages: the built-in font families labels are measured with. (The
# HEALTHCHECK uses `layoutd probe`, so no curl.) Unpinned for the reason given in the build
# stage.
# hadolint ignore=DL3008
RUN apt-get update \
    && apt-get install -y --no-install-recommends libsqlite3-0 libssl3 libpq5 libxml2 libharfbuzz0b libicu72 \
        fonts-inter fonts-dejavu-core fonts-liberation2 \
    && rm -rf /var/lib/apt/lists/* \
    && groupadd --system --gid 10001 layoutd \
    && useradd --system --uid 10001 --gid layoutd --home-dir /data --no-create-home \
        --shell /usr/sbin/nologin layoutd \
    && mkdir -p /data \
    && chown layoutd:layoutd /data

COPY --from=build /staging/ /app/

# Crash reports: a binary with the Swift runtime linked in statically catches crashes (and
# fatal errors) only when it can run the backtracer, and it cannot find one next to a
# runtime library it does not have, so the toolchain's statically linked backtracer
# (swift-backtrace-static: glibc, libstdc++ and libgcc only) is copied in and named by
# path in SWIFT_BACKTRACE (swift docs/Backtracing.rst: enable, interactive, color,
# output-to, swift-backtrace). A crash then prints the crashed thread's backtrace with
# function names to stderr, i.e. to `docker logs`, before the process dies.
COPY --from=build /usr/libexec/swift/linux/swift-backtrace-static /app/swift-backtrace

# Listen on every interface inside the container; keep the database on the volume.
ENV LAYOUTD_HOST=0.0.0.0 \
    LAYOUTD_PORT=8080 \
    LAYOUTD_DB=/data/layoutd.db \
    SWIFT_BACKTRACE=enable=yes,interactive=no,color=no,output-to=stderr,swift-backtrace=/app/swift-backtrace

VOLUME ["/data"]
EXPOSE 8080
WORKDIR /data
USER 10001:10001

# /healthz answers 200 while the process serves HTTP (it does not touch the database).
# `layoutd probe` asks it within 2 s and exits 0 on 200, 1 otherwise; it reads
# LAYOUTD_HOST (0.0.0.0 means loopback) and LAYOUTD_PORT as serve does, so
# `-e LAYOUTD_PORT=...` keeps it right.
HEALTHCHECK --interval=30s --timeout=3s --start-period=10s --retries=3 \
    CMD ["/app/layoutd", "probe"]

# SIGTERM: stop accepting, finish in-flight requests, close the database, exit 0.
STOPSIGNAL SIGTERM
ENTRYPOINT ["/app/layoutd"]
CMD ["serve"]
