#!/usr/bin/env bash
# Installs Debian's nginx when it is missing, for the test that runs two web processes behind a real
# reverse proxy (tests/integration/nginx.test.ts). The package's service is not started: the test
# runs its own nginx in the foreground with a temporary configuration. Needs root or sudo only when
# something is missing. NGINX_PATH names another nginx binary.
set -euo pipefail
if [[ -x "${NGINX_PATH:-/usr/sbin/nginx}" ]]; then
  exit 0
fi
if ! command -v apt-get >/dev/null 2>&1; then
  echo "nginx is needed for the reverse-proxy test: install it and set NGINX_PATH." >&2
  exit 1
fi
sudo=()
if [[ "$(id -u)" -ne 0 ]]; then
  command -v sudo >/dev/null 2>&1 || { echo "Run as root or install sudo to install nginx." >&2; exit 1; }
  sudo=(sudo)
fi
echo "Installing nginx ..."
export DEBIAN_FRONTEND=noninteractive
# Keep the package from starting its own service on port 80 (no init system here to stop it again).
policy=/usr/sbin/policy-rc.d
created_policy=false
if [[ ! -e "$policy" ]]; then
  printf '#!/bin/sh\nexit 101\n' | "${sudo[@]}" tee "$policy" >/dev/null
  "${sudo[@]}" chmod 755 "$policy"
  created_policy=true
fi
cleanup() { if [[ "$created_policy" == true ]]; then "${sudo[@]}" rm -f "$policy"; fi; }
trap cleanup EXIT
"${sudo[@]}" apt-get update -qq
"${sudo[@]}" apt-get install -y -qq --no-install-recommends nginx >/dev/null
