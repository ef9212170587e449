#!/usr/bin/env bash
# Building the Go programs we run (our PocketBase and the servers beside it) into bin/, each only when it
# is missing or its stamp (a version, or a hash of the sources) changed. Sourced by the build scripts.
bin_dir="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)/bin"

# up_to_date OUT_NAME STAMP: whether bin/OUT_NAME exists and was built for STAMP.
up_to_date() {
  local stamp_file="$bin_dir/.$1.version"
  [[ -x "$bin_dir/$1" && -f "$stamp_file" && "$(cat "$stamp_file")" == "$2" ]]
}

# built OUT_NAME STAMP FILE: moves FILE to bin/OUT_NAME and records STAMP.
built() {
  mv "$3" "$bin_dir/$1"
  echo "$2" > "$bin_dir/.$1.version"
  echo "Built bin/$1"
}

# require_go NAME: fails with a clear message when Go is missing.
require_go() {
  if ! command -v go >/dev/null 2>&1; then
    echo "Go is needed to build $1. Install Go 1.26 or newer and run again." >&2
    return 1
  fi
  mkdir -p "$bin_dir"
}

# go_install NAME MODULE/PATH@VERSION OUT_NAME: a command from the Go module proxy at a pinned version.
go_install() {
  local name="$1" package="$2" out_name="$3" version tmp
  version="${package##*@}"
  up_to_date "$out_name" "$version" && return 0
  require_go "$name"
  echo "Building $name $version (a few minutes the first time) ..."
  tmp="$(mktemp -d)"
  (cd "$tmp" && GOBIN="$tmp" GOTOOLCHAIN=local CGO_ENABLED=0 GOFLAGS=-trimpath \
    go install -ldflags "-s -w" "$package")
  built "$out_name" "$version" "$tmp/$(basename "${package%@*}")"
  rm -rf "$tmp"
}
