#!/usr/bin/env bash
# Benchmarks (see BENCHMARKS.md): npm run bench -- [--engine] [--real] [--latency 20,100] ...
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/env.sh
bash scripts/install-deps.sh
npm run build --silent
rm -rf build && npx tsc -p tsconfig.test.json
# BENCH=simulator runs the simulator's own benchmark (bench/simulator.cts) instead.
exec node "build/bench/${BENCH:-run}.cjs" "$@"
