#!/usr/bin/env bash
# Installs the self-hosted translation engine: Apertium APy (Debian package apertium-apy) and a few
# Apertium language pairs from Debian 12. Installs only what is missing, so running it again is
# cheap; needs root (or sudo) only when something is missing.
#
# Pairs (both directions each):  English-Spanish, English-Catalan, Spanish-Catalan,
#                                Spanish-Portuguese, French-Spanish, Spanish-Italian
# Spanish is the hub: English reaches Portuguese, French and Italian through it (see
# pb_hooks/lib/translation.js). Add pairs here; `apt-cache search apertium` lists them.
set -euo pipefail

packages=(
  apertium-apy
  apertium-eng-spa
  apertium-eng-cat
  apertium-spa-cat
  apertium-es-pt
  apertium-fr-es
  apertium-spa-ita
)

missing=()
for package in "${packages[@]}"; do
  if ! dpkg -s "$package" 2>/dev/null | grep -q '^Status: install ok installed$'; then
    missing+=("$package")
  fi
done

if [[ ${#missing[@]} -eq 0 ]]; then
  exit 0
fi

if ! command -v apt-get >/dev/null 2>&1; then
  echo "apt-get not found: install these Debian packages by hand: ${missing[*]}" >&2
  exit 1
fi

sudo=()
if [[ "$(id -u)" -ne 0 ]]; then
  if ! command -v sudo >/dev/null 2>&1; then
    echo "Root is needed to install: ${missing[*]}" >&2
    exit 1
  fi
  sudo=(sudo)
fi

echo "Installing ${missing[*]} ..."
log="$(mktemp)"
trap 'rm -f "$log"' EXIT
install() {
  "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive \
    apt-get install -y -qq --no-install-recommends "${missing[@]}" >"$log" 2>&1
}
# A fresh machine may not have package lists yet: update them once and try again.
if ! install; then
  "${sudo[@]}" apt-get update -qq >>"$log" 2>&1 || true
  if ! install; then
    cat "$log" >&2
    exit 1
  fi
fi
echo "Apertium installed."
