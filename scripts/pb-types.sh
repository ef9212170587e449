#!/usr/bin/env bash
# Regenerates types/pocketbase.d.ts, PocketBase's TypeScript declarations of the JS hook and
# migration API, from our build (bin/pocketbase). The JS VM plugin writes them as types.d.ts into
# the data directory whenever the app starts, so this starts our build once on a throwaway data
# directory (applying our migrations there, then exiting) and keeps the file.
# Run it after changing the PocketBase version in pocketbase/go.mod.
#
#   bash scripts/pb-types.sh           write types/pocketbase.d.ts
#   bash scripts/pb-types.sh --check   fail when types/pocketbase.d.ts differs from the build's
#
# Our own additions to the hooks' global scope ($safeFetch and the like) are declared by hand in
# types/hooks.d.ts.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
target="types/pocketbase.d.ts"

check=false
case "${1:-}" in
  "") ;;
  --check) check=true ;;
  *) echo "usage: $0 [--check]" >&2; exit 2 ;;
esac

bash scripts/build-pocketbase.sh

data="$(mktemp -d)"
trap 'rm -rf "$data"' EXIT
if ! ./bin/pocketbase migrate up --dir "$data" --hooksDir pb_hooks --migrationsDir pb_migrations >"$data/out.log" 2>&1; then
  cat "$data/out.log" >&2
  exit 1
fi
if [[ ! -s "$data/types.d.ts" ]]; then
  echo "PocketBase did not write types.d.ts into its data directory." >&2
  exit 1
fi

if [[ "$check" == true ]]; then
  if ! cmp -s "$data/types.d.ts" "$target"; then
    echo "$target is not the one of our PocketBase build: run bash scripts/pb-types.sh" >&2
    exit 1
  fi
  echo "$target is up to date."
  exit 0
fi

mkdir -p types
cp "$data/types.d.ts" "$target"
echo "Wrote $target ($(wc -c < "$target") bytes)."
