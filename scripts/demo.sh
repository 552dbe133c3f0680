#!/usr/bin/env bash
# npm run demo [-- --keep-open] [-- --port N]
#
# Shows the package working inside a real n8n 2.x with no Keyword.com account: builds and packs the package, starts
# the project's fake Keyword.com API on loopback, starts a fresh n8n with the package installed from its tarball as a
# community package and a "Keyword.com account" credential pointed at the fake, imports the example workflows of
# examples/, runs them headlessly and prints what each produced. --keep-open keeps n8n and the fake running (URL and
# owner login printed) until Ctrl-C. Every process it starts is stopped when it ends.
#
# First run: installs Node 24 and n8n into a cache folder outside the repository (a few minutes, once).
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
# shellcheck source=scripts/env.sh
source "$ROOT/scripts/env.sh"

# Dependencies: the project's installer (npm install --ignore-scripts under Node 24) when node_modules is missing or
# older than package.json / package-lock.json; a no-op otherwise.
bash "$ROOT/scripts/install-deps.sh"

echo "[demo] compiling the demo, the fake API and the driver (tsc -p tsconfig.test.json)" >&2
if ! npx --no-install tsc -p tsconfig.test.json >&2; then
  # tsc still writes its output on type errors elsewhere in the project; the demo runs if its own files were written.
  if [ -f build/e2e/demo/demo.cjs ] && [ build/e2e/demo/demo.cjs -nt e2e/demo/demo.cts ]; then
    echo "[demo] tsc reported type errors (above); running the demo anyway" >&2
  else
    echo "[demo] compiling failed" >&2
    exit 1
  fi
fi

exec node build/e2e/demo/demo.cjs "$@"
