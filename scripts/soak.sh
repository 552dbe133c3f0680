#!/usr/bin/env bash
# Account-life simulations of the Keyword.com Trigger through n8n's engine (dev/simulation/README.md):
#   npm run soak -- --days 90 --seed N [--seeds A..B] [--mode in-memory|durable|durable-cursors|all]
#                   [--event newAlert|keywordUpdated|aiVisibilityUpdated|all] [--interval 5] [--scope all|drawn] [--behaviour '<json>']
#                   [--shrink] [--out file.json] [--jobs N] [--journal file] [--dry-run] [--trace A..B]
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/env.sh
bash scripts/install-deps.sh
echo "[soak] compiling (tsc -p tsconfig.test.json)" >&2
npx --no-install tsc -p tsconfig.test.json >&2
exec node build/dev/simulation/cli.cjs "$@"
