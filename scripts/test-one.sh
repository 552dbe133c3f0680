#!/usr/bin/env bash
# The quick edit-test loop: compile the tests and tools, run only the given test files, check their formatting.
#   npm run test:one -- test/trigger/filters.test.cts [more files, TypeScript paths or their build/…/*.cjs]
# (`npm test` once first: it installs Node 24 and the dependencies this relies on.)
set -euo pipefail
cd "$(dirname "$0")/.."
if [ "$#" -eq 0 ]; then
  echo "usage: npm run test:one -- <test file>... (e.g. test/trigger/filters.test.cts)" >&2
  exit 2
fi
source scripts/env.sh
# From a clean folder: a file moved or deleted must not leave its old build behind to be required instead.
rm -rf build
npx --no-install tsc -p tsconfig.test.json
files=()
for file in "$@"; do
  case "$file" in
    build/*) files+=("$file") ;;
    *.cts) files+=("build/${file%.cts}.cjs") ;;
    *) files+=("$file") ;;
  esac
done
status=0
node --test "${files[@]}" || status=$?
# The files it ran, formatted as CI wants them (`npm run format` fixes them).
sources=()
for file in "$@"; do
  case "$file" in
    build/*.cjs) ts="${file#build/}"; sources+=("${ts%.cjs}.cts") ;;
    *) sources+=("$file") ;;
  esac
done
npx --no-install prettier --check "${sources[@]}" || status=1
exit "$status"
