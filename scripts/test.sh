#!/usr/bin/env bash
# Runs every test: type check, unit and integration tests (vitest, real PocketBase), and the
# end-to-end tests (Playwright in Debian's chromium). Ends with one "N passed, N failed" line.
set -uo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"

if [[ ! -x "${CHROMIUM_PATH:-/usr/bin/chromium}" ]]; then
  echo "Chromium is needed for the end-to-end tests: install it with 'apt-get install -y chromium' (Debian)." >&2
  exit 1
fi

bash scripts/ensure-deps.sh || exit 1
mkdir -p reports
rm -f reports/vitest.json reports/e2e.json

status=0
echo "== type check"
npx tsc || status=1

echo "== unit and integration tests"
npx vitest run --reporter=default --reporter=json --outputFile.json=reports/vitest.json || status=1

echo "== end-to-end tests"
npx playwright test || status=1

node scripts/test-summary.mjs reports/vitest.json reports/e2e.json || status=1
exit $status
