#!/bin/sh
# Installs Debian's headless-capable Chromium for the browser test (integration/browser/run.py)
# when no Chromium is on PATH. Idempotent and quiet: does nothing when one is present,
# runs `apt-get update` only when the package is not known to apt yet.
# Usage: scripts/install-browser.sh        (as root, or with sudo available)
set -eu

for candidate in chromium chromium-browser google-chrome; do
    if command -v "$candidate" >/dev/null 2>&1; then
        exit 0
    fi
done

SUDO=""
if [ "$(id -u)" -ne 0 ]; then
    if command -v sudo >/dev/null 2>&1; then
        SUDO="sudo"
    else
        echo "install-browser.sh: chromium is missing and this is not root (no sudo)" >&2
        exit 1
    fi
fi

export DEBIAN_FRONTEND=noninteractive
# A fresh container has empty package lists: update only then.
if ! apt-cache show chromium >/dev/null 2>&1; then
    $SUDO apt-get update -qq >/dev/null 2>&1 || { echo "install-browser.sh: apt-get update failed" >&2; exit 1; }
fi
log=$(mktemp)
trap 'rm -f "$log"' EXIT
if ! $SUDO apt-get install -y -qq --no-install-recommends chromium fonts-dejavu-core >"$log" 2>&1; then
    cat "$log" >&2
    echo "install-browser.sh: apt-get install chromium failed" >&2
    exit 1
fi
command -v chromium >/dev/null 2>&1 || { echo "install-browser.sh: chromium did not install" >&2; exit 1; }
