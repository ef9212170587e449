#!/usr/bin/env bash
# Builds the OpenID Connect provider the tests sign in with (tools/oidc-provider/) into
# bin/oidc-provider, only when the binary is missing or its sources changed since the last build.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
# shellcheck source=lib/go-install.sh
source "$root/scripts/lib/go-install.sh"

want="$( (cd "$root/tools/oidc-provider" && cat go.mod go.sum $(ls *.go | sort)) | sha256sum | cut -d' ' -f1)"
up_to_date oidc-provider "$want" && exit 0
require_go "the test identity provider (tools/oidc-provider/)"
echo "Building the test identity provider from tools/oidc-provider/ ..."
(cd "$root/tools/oidc-provider" && GOTOOLCHAIN=local CGO_ENABLED=0 go build -trimpath -ldflags "-s -w" -o "$bin_dir/oidc-provider.tmp" .)
built oidc-provider "$want" "$bin_dir/oidc-provider.tmp"
