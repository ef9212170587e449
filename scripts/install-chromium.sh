#!/usr/bin/env bash
# Installs Debian's Chromium for the end-to-end tests when it is missing (Playwright cannot
# download its own browsers here). Needs root or sudo only when something is missing.
set -euo pipefail
if [[ -x "${CHROMIUM_PATH:-/usr/bin/chromium}" ]]; then
  exit 0
fi
if ! command -v apt-get >/dev/null 2>&1; then
  echo "Chromium is needed for the end-to-end tests: install it and set CHROMIUM_PATH." >&2
  exit 1
fi
sudo=()
if [[ "$(id -u)" -ne 0 ]]; then
  command -v sudo >/dev/null 2>&1 || { echo "Run as root or install sudo to install chromium." >&2; exit 1; }
  sudo=(sudo)
fi
echo "Installing chromium ..."
export DEBIAN_FRONTEND=noninteractive
"${sudo[@]}" apt-get update -qq
"${sudo[@]}" apt-get install -y -qq chromium >/dev/null
