#!/usr/bin/env bash
# Runs Apertium APy in the foreground on 127.0.0.1:PORT (default 2737), serving every language
# pair installed by scripts/install-apertium.sh. The caller puts it in the background and stops it
# with SIGTERM.
#
#   bash scripts/start-apertium.sh 2737 &
#   curl 'http://127.0.0.1:2737/listPairs'
#
# APy itself always listens on all interfaces and has no option to change that, so APy's entry
# point is started from a small wrapper that makes its HTTP server bind the loopback address only.
# Settings (environment): APERTIUM_MODES (pairs directory, default /usr/share/apertium/modes),
# APERTIUM_MAX_IDLE_SECS (default 600).
#
# Each language pair runs as a pipeline of about ten processes, started on its first use. APy
# answers within a second of starting, using about 30 MB; each loaded pair adds roughly 100-200 MB
# (the twelve main directions of the default install together: about 1.1 GB). Pipelines idle for
# APERTIUM_MAX_IDLE_SECS are shut down (checked when a translation request arrives); the next
# request for the pair starts it again in well under a second.
set -euo pipefail

port="${1:-2737}"
if ! [[ "$port" =~ ^[0-9]+$ ]] || (( port < 1 || port > 65535 )); then
  echo "usage: $0 [PORT]" >&2
  exit 2
fi

modes="${APERTIUM_MODES:-/usr/share/apertium/modes}"
max_idle="${APERTIUM_MAX_IDLE_SECS:-600}"
names="/usr/share/apertium-apy/langNames.db"

if [[ ! -x /usr/bin/apertium-apy || ! -d "$modes" ]]; then
  echo "Apertium APy is not installed: run scripts/install-apertium.sh first." >&2
  exit 1
fi

args=("$modes" --port "$port" --timeout 10 --max-idle-secs "$max_idle")
if [[ -f "$names" ]]; then
  args+=(--lang-names "$names")
fi

# APy refuses to start without a UTF-8 locale. The Debian python3 is used on purpose: APy's
# modules (tornado etc.) are installed for it, not for any other python3 on the PATH.
export LC_ALL=C.UTF-8
exec /usr/bin/python3 - "${args[@]}" <<'PY'
import sys

import tornado.tcpserver

LOOPBACK = "127.0.0.1"
_bind = tornado.tcpserver.TCPServer.bind


def bind_loopback(self, port, address=None, *args, **kwargs):
    return _bind(self, port, LOOPBACK, *args, **kwargs)


tornado.tcpserver.TCPServer.bind = bind_loopback

from apertium_apy.apy import main  # noqa: E402

sys.argv = ["apertium-apy"] + sys.argv[1:]
main()
PY
