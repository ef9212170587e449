#!/usr/bin/env bash
# go_install NAME MODULE/PATH@VERSION OUT_NAME: builds a Go command from the module proxy with the local
# toolchain into bin/OUT_NAME, only when it is missing or was built at another version (a stamp file
# beside it). Sourced by the install scripts of the servers we run beside PocketBase.
go_install() {
  local name="$1" package="$2" out_name="$3"
  local root version out stamp tmp
  root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
  version="${package##*@}"
  out="$root/bin/$out_name"
  stamp="$root/bin/.$out_name.version"

  if [[ -x "$out" && -f "$stamp" && "$(cat "$stamp")" == "$version" ]]; then
    return 0
  fi
  if ! command -v go >/dev/null 2>&1; then
    echo "Go is needed to build $name. Install Go 1.26 or newer and run again." >&2
    return 1
  fi

  echo "Building $name $version (a few minutes the first time) ..."
  mkdir -p "$root/bin"
  tmp="$(mktemp -d)"
  # shellcheck disable=SC2064
  trap "rm -rf '$tmp'" EXIT
  (cd "$tmp" && GOBIN="$tmp" GOTOOLCHAIN=local CGO_ENABLED=0 GOFLAGS=-trimpath \
    go install -ldflags "-s -w" "$package")
  mv "$tmp/$(basename "${package%@*}")" "$out"
  echo "$version" > "$stamp"
  echo "$name built: bin/$out_name"
}
