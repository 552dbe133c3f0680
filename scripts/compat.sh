#!/usr/bin/env bash
# Compatibility smoke against another n8n version:  npm run compat -- <n8n version>   (e.g. 1.123.81, 2.41.1)
# Installs that n8n once into the cache (scripts/install-n8n-host.sh <version>), builds and packs the package, and runs
# test/compat/smoke.compat.cts there: the nodes load (with the AI tool variant), operations of node versions 1 and 2
# run, and the trigger polls. CI runs the pinned n8n only; the README's Compatibility table holds the results.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/env.sh
VERSION="${1:?usage: npm run compat -- <n8n version>}"

# The pinned version is the end-to-end tier's own host (with its lock); any other is installed by version.
PINNED="$(node -p "require('./e2e/host/n8n-host.package.json').dependencies.n8n")"
if [ "$VERSION" = "$PINNED" ]; then HOST="$(bash scripts/install-n8n-host.sh)"; else HOST="$(bash scripts/install-n8n-host.sh "$VERSION")"; fi
npm run build --silent
OUT=build-compat
rm -rf "$OUT"
npx tsc -p tsconfig.test.json --outDir "$OUT"
KEYWORD_COM_N8N_HOST_DIR="$HOST" node --test --test-concurrency=1 "$OUT/test/compat/smoke.compat.cjs"
