#!/usr/bin/env bash
# Installs the LiveKit server (the SFU that forwards call media, see
# docs/decisions/0030-calls-livekit.md) into bin/livekit-server: built from source with the local Go
# toolchain at the pinned version, only when missing or at another version.
set -euo pipefail
# shellcheck source=lib/go-install.sh
source "$(dirname "$0")/lib/go-install.sh"
# v1.13.5: the newest release that `go install` builds from the Go module proxy. From v1.13.6 on,
# LiveKit's go.mod replaces pion's WebRTC, ICE and DTLS modules with forks of its own ("-warp"
# versions) that the proxy does not serve, and `go install` refuses replace directives anyway
# (docs/decisions/0030-calls-livekit.md).
go_install "the LiveKit server" "github.com/livekit/livekit-server/cmd/server@v1.13.5" livekit-server
