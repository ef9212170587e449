#!/usr/bin/env bash
# Builds our PocketBase (pocketbase/) into bin/pocketbase, only when the binary is
# missing or its sources changed since the last build.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
# shellcheck source=lib/go-install.sh
source "$root/scripts/lib/go-install.sh"

want="$( (cd "$root/pocketbase" && cat go.mod go.sum $(ls *.go | sort)) | sha256sum | cut -d' ' -f1)"
up_to_date pocketbase "$want" && exit 0
require_go "PocketBase (pocketbase/)"
echo "Building PocketBase from pocketbase/ ..."
(cd "$root/pocketbase" && GOTOOLCHAIN=local CGO_ENABLED=0 go build -trimpath -ldflags "-s -w" -o "$bin_dir/pocketbase.tmp" .)
built pocketbase "$want" "$bin_dir/pocketbase.tmp"
