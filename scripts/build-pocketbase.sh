#!/usr/bin/env bash
# Builds our PocketBase (pocketbase/) into bin/pocketbase, only when the binary is
# missing or its sources changed since the last build.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
out="$root/bin/pocketbase"
stamp="$root/bin/.pocketbase.sources"

sources_hash() {
  (cd "$root/pocketbase" && cat go.mod go.sum $(ls *.go | sort)) | sha256sum | cut -d' ' -f1
}

want="$(sources_hash)"
if [[ -x "$out" && -f "$stamp" && "$(cat "$stamp")" == "$want" ]]; then
  exit 0
fi

if ! command -v go >/dev/null 2>&1; then
  echo "Go is needed to build PocketBase (pocketbase/). Install Go 1.26 or newer and run again." >&2
  exit 1
fi

echo "Building PocketBase from pocketbase/ ..."
mkdir -p "$root/bin"
(cd "$root/pocketbase" && GOTOOLCHAIN=local CGO_ENABLED=0 go build -trimpath -ldflags "-s -w" -o "$out.tmp" .)
mv "$out.tmp" "$out"
echo "$want" > "$stamp"
echo "PocketBase built: bin/pocketbase"
