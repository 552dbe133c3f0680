#!/usr/bin/env bash
# Installs n8n's community-package scanner (@n8n/scan-community-package, as n8n runs it before it verifies a package)
# into a cache folder outside the repository, and prints that folder as its only stdout line.
#
# Why not a devDependency: the scanner pins TypeScript 7.0.2, which has no JavaScript API for its TypeScript parser to
# load; it runs with TypeScript 5.9.3, which only an npm `overrides` entry can give it, and the published package.json
# (this repository's) may hold no `overrides` (n8n's no-overrides-field rule). So it gets a folder of its own.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
# shellcheck source=scripts/env.sh
source "$ROOT/scripts/env.sh" >&2

SCANNER_VERSION=0.32.0
TYPESCRIPT_VERSION=5.9.3
N8N_WORKFLOW_VERSION=2.41.0
DIR="$KEYWORD_COM_CACHE/scanner-$SCANNER_VERSION-ts$TYPESCRIPT_VERSION"
STAMP="$DIR/.installed"
if [ -f "$STAMP" ]; then
  echo "$DIR"
  exit 0
fi
echo "[scanner] installing @n8n/scan-community-package $SCANNER_VERSION (TypeScript $TYPESCRIPT_VERSION) into $DIR (once)" >&2
mkdir -p "$DIR"
cat > "$DIR/package.json" <<JSON
{
  "private": true,
  "dependencies": {
    "@n8n/scan-community-package": "$SCANNER_VERSION",
    "n8n-workflow": "$N8N_WORKFLOW_VERSION",
    "typescript": "$TYPESCRIPT_VERSION"
  },
  "overrides": { "typescript": "$TYPESCRIPT_VERSION" }
}
JSON
(cd "$DIR" && run_logged scanner npm install --no-audit --no-fund --ignore-scripts --legacy-peer-deps --loglevel=error)
date -u +%Y-%m-%dT%H:%M:%SZ > "$STAMP"
echo "$DIR"
