#!/usr/bin/env bash
# Installs Litestream (continuous replication of PocketBase's SQLite database, see
# docs/decisions/0012-supervision-and-replication.md) into bin/litestream: built from source with
# the local Go toolchain at the pinned version, only when missing or at another version.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
version="v0.5.18"
out="$root/bin/litestream"
stamp="$root/bin/.litestream.version"

if [[ -x "$out" && -f "$stamp" && "$(cat "$stamp")" == "$version" ]]; then
  exit 0
fi
if ! command -v go >/dev/null 2>&1; then
  echo "Go is needed to build Litestream. Install Go 1.26 or newer and run again." >&2
  exit 1
fi

echo "Building Litestream $version ..."
mkdir -p "$root/bin"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
(cd "$tmp" && GOBIN="$tmp" GOTOOLCHAIN=local CGO_ENABLED=0 GOFLAGS=-trimpath \
  go install -ldflags "-s -w" "github.com/benbjohnson/litestream/cmd/litestream@$version")
mv "$tmp/litestream" "$out"
echo "$version" > "$stamp"
echo "Litestream built: bin/litestream"
