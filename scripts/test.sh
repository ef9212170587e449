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

# The static checks run at the same time as each other (each is one process; two cores), not beside
# the tests: tests/unit/lint-cycles.test.ts runs ESLint and dependency-cruiser itself, and timing tests
# (supervision, hostile input) need the processor they were written for. Each check's output is kept
# and shown when one fails.
phase "type check, lint and format"
check() {
  local name="$1" started=$SECONDS
  shift
  if "$@" > "reports/check-$name.log" 2>&1; then
    echo "$name: passed ($((SECONDS - started)) s)"
  else
    echo "$name: FAILED ($((SECONDS - started)) s)"
    tail -40 "reports/check-$name.log"
    return 1
  fi
}
checks=()
check tsc npx tsc & checks+=($!)
check tsc-hooks npx tsc -p tsconfig.hooks.json & checks+=($!)
check eslint npx eslint . & checks+=($!)
check depcruise npx depcruise app --config .dependency-cruiser.cjs --output-type err & checks+=($!)
check prettier npx prettier --check . & checks+=($!)
for pid in "${checks[@]}"; do wait "$pid" || status=1; done

phase "unit and integration tests"
# (its output is kept: an error outside any test fails the run without failing a test, and is shown again below)
npx vitest run --reporter=default --reporter=json --outputFile.json=reports/vitest.json 2>&1 | tee reports/vitest.log
vitest_exit=${PIPESTATUS[0]}
[ "$vitest_exit" -eq 0 ] || status=1

phase "end-to-end tests"
npx playwright test
playwright_exit=$?
[ "$playwright_exit" -eq 0 ] || status=1

phase "summary"
if [ "$vitest_exit" -ne 0 ] && grep -q "Unhandled Error" reports/vitest.log; then
  echo "vitest: errors outside the tests"
  sed -n '/Unhandled Error/,/^ Test Files/p' reports/vitest.log | head -60
fi
VITEST_EXIT=$vitest_exit PLAYWRIGHT_EXIT=$playwright_exit node scripts/test-summary.mjs reports/vitest.json reports/e2e.json || status=1
exit $status
