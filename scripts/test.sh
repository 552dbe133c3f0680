#!/usr/bin/env bash
# The whole test suite, as CI runs it. Works on a fresh machine with only Node 20 and npm: it installs Node 24,
# the dev dependencies, a pinned real n8n (cached outside the repository), Chromium for the editor test, and
# Postgres and Redis from Debian's packages for the queue-mode tier (run on loopback by the tests themselves).
#
#   npm test                 everything
#   npm test -- --fast       everything but the real-n8n end-to-end tiers
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/env.sh
fast=false
for arg in "$@"; do [ "$arg" = "--fast" ] && fast=true; done

# Each step's wall time, printed at the end (a step lasts until the next begins).
timings=()
step_label=""
step_started=$SECONDS
run_started=$SECONDS
end_step() {
  if [ -n "$step_label" ]; then
    timings+=("$(printf '%6d s  %s' $((SECONDS - step_started)) "${step_label:0:100}")")
  fi
  step_label=""
}
step() {
  end_step
  step_label=$*
  step_started=$SECONDS
  printf '\n\033[1m== %s\033[0m\n' "$*"
}

step "dependencies"
bash scripts/install-deps.sh

step "formatting (Prettier), then lint: the package with n8n's config (n8n-node lint, strict, as a reviewer runs it) and the code around it with typed ESLint"
npm run format:check --silent
npm run build --silent
npx --no-install n8n-node lint
npm run lint:tools --silent
step "layering: imports point down, no circle (dependency-cruiser, .dependency-cruiser.cjs)"
npm run lint:deps --silent

step "the community-package scanner n8n runs before verification (source, and the packed tarball)"
npm run scan --silent

step "compile tests and tools"
rm -rf build
npx tsc -p tsconfig.test.json

results=$(mktemp)
run_tests() { # label, node --test args...
  local label=$1; shift
  step "$label"
  set +e
  node --test "$@" 2>&1 | tee -a "$results"
  local status=${PIPESTATUS[0]}
  set -e
  return "$status"
}

status=0
run_tests "unit, fake API, harness and engine tests (n8n's execution engine, real HTTP to the fake API)" \
  --test-concurrency=2 \
  'build/test/unit/**/*.test.cjs' 'build/test/fake-api/**/*.test.cjs' 'build/test/harness-selftest/**/*.test.cjs' \
  'build/test/engine/**/*.test.cjs' 'build/test/trigger/**/*.test.cjs' 'build/test/reliability/**/*.test.cjs' \
  'build/test/bench-counts/**/*.test.cjs' || status=1

# Each poll's wall-clock time against its budget: alone, so that no other test file competes for the two cores.
run_tests "the trigger against an API that takes 1 s a request, alone (each poll within its budget)" \
  --test-concurrency=1 'build/test/timing/**/*.test.cjs' || status=1

run_tests "account-life simulation through n8n's engine (a simulated fortnight per scheduler mode and event, the checker checked, regressions)" \
  --test-concurrency=1 'build/test/simulation/**/*.test.cjs' || status=1

if [ "$fast" = false ]; then
  step "real n8n host and Chromium"
  bash scripts/install-n8n-host.sh >/dev/null
  [ -f scripts/install-chromium.sh ] && bash scripts/install-chromium.sh
  run_tests "end-to-end tests in a real n8n" --test-concurrency=1 \
    'build/test/e2e-smoke/**/*.test.cjs' 'build/test/e2e/**/*.test.cjs' || status=1

  step "Postgres and Redis (Debian's packages) for queue mode"
  bash scripts/install-queue-services.sh >/dev/null
  run_tests "production tier: n8n in queue mode (main + 2 workers, Postgres, Redis), three scheduler modes" --test-concurrency=1 \
    'build/test/e2e-queue/**/*.test.cjs' || status=1
fi

pass=$(grep -E '^ℹ pass [0-9]+' "$results" | awk '{s+=$3} END {print s+0}')
fail=$(grep -E '^ℹ fail [0-9]+' "$results" | awk '{s+=$3} END {print s+0}')
skipped=$(grep -E '^ℹ skipped [0-9]+' "$results" | awk '{s+=$3} END {print s+0}')
# A test cancelled because its suite's hook failed did not pass: it counts as failed.
cancelled=$(grep -E '^ℹ cancelled [0-9]+' "$results" | awk '{s+=$3} END {print s+0}')
fail=$((fail + cancelled))
rm -f "$results"
end_step
echo
echo "time per step:"
printf '%s\n' "${timings[@]}"
printf '%6d s  in all\n' $((SECONDS - run_started))
echo
echo "total: $pass passed, $fail failed, $skipped skipped"
if [ "$status" -ne 0 ] || [ "$fail" -ne 0 ] || [ "$pass" -eq 0 ]; then exit 1; fi
