#!/usr/bin/env bash
# Installs the pinned real n8n (e2e/host/: n8n-host.package.json, .npmrc, n8n-host.package-lock.json) into a cache folder
# outside the repository: $KEYWORD_COM_CACHE/n8n-host-<first 12 hex of the sha256 of those three files>/, where the
# manifest and lockfile become package.json and package-lock.json (the repository itself holds one package.json, the
# package's).
#
# - Prints the host folder as its only stdout line; progress goes to stderr.
# - Warm (stamp present): does nothing.
# - Cold: copies the three files, `npm install --ignore-scripts` (an install script of a Kafka module downloads from
#   outside and fails; `npm ci` rejects the lock because some platform packages are missing from the registry), then
#   builds the native modules n8n needs under Node 24 from their bundled sources. The stamp is written last, so an
#   interrupted install is redone from where npm left it.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
# shellcheck source=scripts/env.sh
source "$ROOT/scripts/env.sh" >&2
# `npm run compat` runs an n8n whose engines exclude Node 24 on the Node it names (KEYWORD_COM_N8N_NODE_HOME): its
# native modules are built for that Node, in a host folder of its own.
if [ -n "${KEYWORD_COM_N8N_NODE_HOME:-}" ]; then
  export PATH="$KEYWORD_COM_N8N_NODE_HOME/bin:$PATH"
  export npm_config_nodedir="$KEYWORD_COM_N8N_NODE_HOME"
fi

SRC="$ROOT/e2e/host"
# Source file → its name in the host folder.
FILES=(n8n-host.package.json .npmrc n8n-host.package-lock.json)
host_name() { case "$1" in n8n-host.package.json) echo package.json ;; n8n-host.package-lock.json) echo package-lock.json ;; *) echo "$1" ;; esac; }
VERSION="${1:-}"
if [ -n "$VERSION" ]; then
  # Another n8n version, for `npm run compat -- <version>`: no lock (npm resolves it once; the folder is cached by
  # version), with the overrides that version needs to install from the registry.
  [[ "$VERSION" =~ ^[0-9]+\.[0-9]+\.[0-9]+$ ]] || { echo "[n8n-host] not a version: $VERSION" >&2; exit 2; }
  SRC="$(mktemp -d)"
  trap 'rm -rf "$SRC"' EXIT
  cp "$ROOT/e2e/host/.npmrc" "$SRC/.npmrc"
  node "$ROOT/scripts/compat-host.mjs" "$VERSION" > "$SRC/n8n-host.package.json"
  FILES=(n8n-host.package.json .npmrc)
fi
for f in "${FILES[@]}"; do
  [ -f "$SRC/$f" ] || { echo "[n8n-host] missing $SRC/$f" >&2; exit 1; }
done
KEY="$(cd "$SRC" && { cat "${FILES[@]}"; [ -z "${KEYWORD_COM_N8N_NODE_HOME:-}" ] || node -v; } | sha256sum | cut -c1-12)"
HOST="$KEYWORD_COM_CACHE/n8n-host-$KEY"
STAMP="$HOST/.installed"

if [ -f "$STAMP" ] && [ -x "$HOST/node_modules/.bin/n8n" ]; then
  echo "$HOST"
  exit 0
fi

log() { echo "[n8n-host] $(date +%H:%M:%S) $*" >&2; }
START=$SECONDS
mkdir -p "$HOST"
# One installer at a time per host folder (parallel test files may all call this).
exec 9>"$HOST.lock"
if command -v flock >/dev/null 2>&1; then
  flock 9
  if [ -f "$STAMP" ]; then echo "$HOST"; exit 0; fi
fi

log "installing n8n into $HOST (Node $(node -v); takes a few minutes once)"
for f in "${FILES[@]}"; do cp "$SRC/$f" "$HOST/$(host_name "$f")"; done
cd "$HOST"

log "npm install --ignore-scripts"
run_logged n8n-host npm install --ignore-scripts --no-audit --no-fund --loglevel=error

log "building sqlite3 from its bundled source (the compiler's output goes to a log file)"
# Its build script must run even when the caller turned scripts off: under `npm test` npm passes the project's
# ignore-scripts=true on as npm_config_ignore_scripts, which would make this rebuild a silent no-op (the flag wins).
JOBS=2 run_logged sqlite3-build npm rebuild sqlite3 --ignore-scripts=false --foreground-scripts --loglevel=error

# Nothing else needs building: isolated-vm (n8n 2.x's default "vm" expression engine) loads the Node 24 prebuild it
# ships; the other modules with install scripts (kafka, oracledb, cpu-features, sentry profilers, ...) are optional
# or have pure-JS fallbacks.
run_logged sqlite3-load node -e "require('./node_modules/sqlite3')" || { log "sqlite3 does not load"; exit 1; }
# (Older n8n 1.x has no isolated-vm at all: nothing to check there.)
if [ -d node_modules/isolated-vm ]; then
  run_logged isolated-vm-load node -e "const ivm = require('./node_modules/isolated-vm'); new ivm.Isolate().dispose()" ||
    { log "isolated-vm does not load under $(node -v)"; exit 1; }
fi
[ -x node_modules/.bin/n8n ] || { log "node_modules/.bin/n8n is missing"; exit 1; }

date -u +%Y-%m-%dT%H:%M:%SZ > "$STAMP"
log "done in $((SECONDS - START)) s"
echo "$HOST"
