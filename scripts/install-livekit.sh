#!/usr/bin/env bash
# Installs the LiveKit server (the SFU that forwards call media, see
# docs/decisions/0030-calls-livekit.md) into bin/livekit-server: built from source with the local Go
# toolchain at the pinned version, only when missing or at another version.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
# v1.13.5: the newest release that `go install` builds from the Go module proxy. From v1.13.6 on,
# LiveKit's go.mod replaces pion's WebRTC, ICE and DTLS modules with forks of its own ("-warp"
# versions) that the proxy does not serve, and `go install` refuses replace directives anyway
# (docs/decisions/0030-calls-livekit.md).
version="v1.13.5"
out="$root/bin/livekit-server"
stamp="$root/bin/.livekit-server.version"

if [[ -x "$out" && -f "$stamp" && "$(cat "$stamp")" == "$version" ]]; then
  exit 0
fi
if ! command -v go >/dev/null 2>&1; then
  echo "Go is needed to build the LiveKit server. Install Go 1.26 or newer and run again." >&2
  exit 1
fi

echo "Building the LiveKit server $version (a few minutes the first time) ..."
mkdir -p "$root/bin"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
(cd "$tmp" && GOBIN="$tmp" GOTOOLCHAIN=local CGO_ENABLED=0 GOFLAGS=-trimpath \
  go install -ldflags "-s -w" "github.com/livekit/livekit-server/cmd/server@$version")
mv "$tmp/server" "$out"
echo "$version" > "$stamp"
echo "LiveKit server built: bin/livekit-server"
