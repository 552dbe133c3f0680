#!/usr/bin/env bash
# Installs Debian's Chromium for the browser end-to-end test (test/e2e/editor.e2e.test.cts, driven by playwright-core).
# Idempotent: does nothing when /usr/bin/chromium exists. Needs root (or sudo) and the Debian package archive.
set -euo pipefail

CHROMIUM=/usr/bin/chromium
if [ -x "$CHROMIUM" ]; then
  echo "[chromium] $("$CHROMIUM" --version 2>/dev/null || echo present) at $CHROMIUM" >&2
  exit 0
fi

SUDO=""
if [ "$(id -u)" -ne 0 ]; then
  if command -v sudo >/dev/null 2>&1; then SUDO="sudo"; else
    echo "[chromium] $CHROMIUM is missing and this is not root: run 'apt-get install -y chromium' as root" >&2
    exit 1
  fi
fi

# shellcheck source=scripts/quiet.sh
source "$(dirname "${BASH_SOURCE[0]}")/quiet.sh"
START=$SECONDS
echo "[chromium] apt-get update" >&2
run_logged apt-update $SUDO env DEBIAN_FRONTEND=noninteractive apt-get update -qq
echo "[chromium] apt-get install -y chromium fonts-dejavu-core" >&2
run_logged apt-install $SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends chromium fonts-dejavu-core
[ -x "$CHROMIUM" ] || { echo "[chromium] install finished but $CHROMIUM is missing" >&2; exit 1; }
echo "[chromium] $("$CHROMIUM" --version 2>/dev/null) installed in $((SECONDS - START)) s" >&2
