#!/usr/bin/env bash
# Runs every test: type check, unit and integration tests (vitest, real PocketBase), and the
# end-to-end tests (Playwright in Debian's chromium). Ends with one "N passed, N failed" line.
set -uo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"

# What the tests need beyond npm: Debian's chromium, the Apertium translation engine and nginx.
bash scripts/install-chromium.sh || exit 1
bash scripts/install-apertium.sh || exit 1
bash scripts/install-nginx.sh || exit 1
bash scripts/ensure-deps.sh || exit 1
mkdir -p reports
rm -f reports/vitest.json reports/e2e.json

status=0
# each phase says how long it took: the run's budget is 12 minutes on two cores
phase() { echo "== $1 (after ${SECONDS} s)"; }
phase "type check"
npx tsc || status=1
npx tsc -p tsconfig.hooks.json || status=1

phase "lint and format"
npx eslint . || status=1
npx depcruise app --config .dependency-cruiser.cjs --output-type err || status=1
npx prettier --check . > reports/prettier.log 2>&1 || { tail -20 reports/prettier.log; status=1; }

phase "unit and integration tests"
npx vitest run --reporter=default --reporter=json --outputFile.json=reports/vitest.json || status=1

phase "end-to-end tests"
npx playwright test || status=1

phase "summary"
node scripts/test-summary.mjs reports/vitest.json reports/e2e.json || status=1
exit $status
