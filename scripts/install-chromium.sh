#!/usr/bin/env bash
# Installs Debian's Chromium for the end-to-end tests when it is missing (Playwright cannot
# download its own browsers here). Needs root or sudo only when something is missing.
set -euo pipefail
if [[ -x "${CHROMIUM_PATH:-/usr/bin/chromium}" ]]; then
  exit 0
fi
source "$(dirname "$0")/lib/apt-install.sh"
apt_install "Chromium is needed for the end-to-end tests: install it and set CHROMIUM_PATH" chromium
