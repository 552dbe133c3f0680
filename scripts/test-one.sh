#!/usr/bin/env bash
# The quick edit-test loop: compile what changed, run only the given test files, check the formatting of the files
# given and of every source changed in the working tree.
#   npm run test:one -- test/trigger/filters.test.cts [more files, TypeScript paths or their build/…/*.cjs]
# (`npm test` once first: it installs Node 24 and the dependencies this relies on.)
#
# Why incremental: a clean compile of the tests and tools takes 11 s or more; TypeScript's incremental build
# (build/.tsbuildinfo) re-checks only the files a change can affect, and takes about 4 s. It assumes a change affects
# only the files that import it directly (--assumeChangesOnlyAffectDirectDependencies): a type error two imports away
# is found by `npm test`, which always compiles from a clean folder.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ "$#" -eq 0 ]; then
  echo "usage: npm run test:one -- <test file>... (e.g. test/trigger/filters.test.cts)" >&2
  exit 2
fi
source scripts/env.sh
# A file moved or deleted must not leave its old build behind to be required instead.
node scripts/prune-build.mjs
npx --no-install tsc -p tsconfig.test.json --incremental --tsBuildInfoFile build/.tsbuildinfo \
  --assumeChangesOnlyAffectDirectDependencies
files=()
sources=()
for file in "$@"; do
  case "$file" in
    build/*.cjs) files+=("$file"); ts="${file#build/}"; sources+=("${ts%.cjs}.cts") ;;
    *.cts) files+=("build/${file%.cts}.cjs"); sources+=("$file") ;;
    *) files+=("$file"); sources+=("$file") ;;
  esac
done
# The sources changed in the working tree (staged, unstaged or new), formatted as CI wants them too.
while IFS= read -r changed; do
  [ -f "$changed" ] && sources+=("$changed")
done < <({ git diff --name-only HEAD; git ls-files --others --exclude-standard; } | sort -u)
status=0
node --test "${files[@]}" || status=$?
# `npm run format` fixes them; Prettier skips what .prettierignore names and files it has no parser for.
npx --no-install prettier --check --ignore-unknown "${sources[@]}" || status=1
exit "$status"
