#!/usr/bin/env bash
# The quick edit-test loop: compile the tests and tools, then run only the given test files.
#   npm run test:one -- test/trigger/filters.test.ts [more files, TypeScript paths or their build/…/*.js]
# (`npm test` once first: it installs Node 24 and the dependencies this relies on.)
set -euo pipefail
cd "$(dirname "$0")/.."
if [ "$#" -eq 0 ]; then
  echo "usage: npm run test:one -- <test file>... (e.g. test/trigger/filters.test.ts)" >&2
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
    *.ts) files+=("build/${file%.ts}.js") ;;
    *) files+=("$file") ;;
  esac
done
exec node --test "${files[@]}"
