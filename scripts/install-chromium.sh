#!/usr/bin/env bash
# Installs Debian's Chromium and its headless shell for the end-to-end tests when they are missing
# (Playwright cannot download its own browsers here; playwright.config.ts says which tests use which).
# Needs root or sudo only when something is missing.
set -euo pipefail
source "$(dirname "$0")/lib/apt-install.sh"
if [[ ! -x "${CHROMIUM_PATH:-/usr/bin/chromium}" ]]; then
  apt_install "Chromium is needed for the end-to-end tests: install it and set CHROMIUM_PATH" chromium
fi
if [[ -z "${CHROMIUM_PATH:-}" && ! -x "${CHROMIUM_SHELL_PATH:-/usr/bin/chromium-headless-shell}" ]]; then
  apt_install "Chromium's headless shell is needed for the end-to-end tests: install it and set CHROMIUM_SHELL_PATH" chromium-headless-shell
fi
