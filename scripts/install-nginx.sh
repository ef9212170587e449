#!/usr/bin/env bash
# Installs Debian's nginx when it is missing, for the test that runs two web processes behind a real
# reverse proxy (tests/integration/nginx.test.ts). The package's service is not started: the test
# runs its own nginx in the foreground with a temporary configuration. Needs root or sudo only when
# something is missing. NGINX_PATH names another nginx binary.
set -euo pipefail
if [[ -x "${NGINX_PATH:-/usr/sbin/nginx}" ]]; then
  exit 0
fi
source "$(dirname "$0")/lib/apt-install.sh"
apt_install "nginx is needed for the reverse-proxy test (or set NGINX_PATH)" nginx
