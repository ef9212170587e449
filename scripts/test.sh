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

# The static checks run beside the unit and integration tests: those mostly wait on their own servers,
# the checks mostly compute. Each check's output is kept and shown when they are all done.
phase "type check, lint and format, beside the unit and integration tests"
checks() {
  local failed=0
  check() {
    local name="$1" started=$SECONDS
    shift
    if "$@" > "reports/check-$name.log" 2>&1; then
      echo "$name: passed ($((SECONDS - started)) s)"
    else
      echo "$name: FAILED ($((SECONDS - started)) s)"
      tail -40 "reports/check-$name.log"
      failed=1
    fi
  }
  check tsc npx tsc
  check tsc-hooks npx tsc -p tsconfig.hooks.json
  check eslint npx eslint .
  check depcruise npx depcruise app --config .dependency-cruiser.cjs --output-type err
  check prettier npx prettier --check .
  return $failed
}
checks > reports/checks.log 2>&1 &
checks_pid=$!

npx vitest run --reporter=default --reporter=json --outputFile.json=reports/vitest.json || status=1
phase "unit and integration tests done"
wait "$checks_pid" || status=1
cat reports/checks.log

phase "end-to-end tests"
npx playwright test || status=1

phase "summary"
node scripts/test-summary.mjs reports/vitest.json reports/e2e.json || status=1
exit $status
