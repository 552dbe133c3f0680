#!/usr/bin/env bash
# The simulator's own benchmark (bench/simulator.cts): npm run bench:simulator -- [--seeds N] [--days D]
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/env.sh
bash scripts/install-deps.sh
npm run build --silent
rm -rf build && npx tsc -p tsconfig.test.json
exec node build/bench/simulator.cjs "$@"
