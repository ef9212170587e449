#!/usr/bin/env bash
# Installs Litestream (continuous replication of PocketBase's SQLite database, see
# docs/decisions/0012-supervision-and-replication.md) into bin/litestream: built from source with
# the local Go toolchain at the pinned version, only when missing or at another version.
set -euo pipefail
# shellcheck source=lib/go-install.sh
source "$(dirname "$0")/lib/go-install.sh"
go_install "Litestream" "github.com/benbjohnson/litestream/cmd/litestream@v0.5.18" litestream
