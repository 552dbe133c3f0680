#!/usr/bin/env bash
# Installs the project's dev dependencies with Node 24 when node_modules is missing or older than the lock file.
# Install scripts are skipped (a transitive Kafka module downloads from outside); the native modules the tests
# load ship prebuilt binaries for Node 24.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/env.sh
stamp=node_modules/.keyword-com-install
inputs_hash() { { cat package.json; cat package-lock.json 2>/dev/null || true; } | sha256sum | cut -c1-16; }
if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$(inputs_hash)" ]; then
  exit 0
fi
echo "[install] npm install (Node $(node --version))" >&2
run_logged install npm install --no-audit --no-fund --ignore-scripts --loglevel=error
# A new file, not the old one rewritten: node_modules may be a hard-linked copy shared with other checkouts.
inputs_hash > "$stamp.new" && mv -f "$stamp.new" "$stamp"
