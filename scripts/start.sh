#!/usr/bin/env bash
# Starts the whole product under scripts/supervise.mjs, which restarts whatever crashes: PocketBase
# (with our migrations and hooks), the web app, the translation engine, and Litestream, which
# replicates the database continuously (docs/operating.md, "Continuous replication").
# Settings (environment): HOST, PORT (web app, default 127.0.0.1:3000), PB_HTTP (PocketBase,
# default 127.0.0.1:8090), PB_DATA (PocketBase data directory, default ./pb_data), REPLICATION,
# REPLICA_DIR, LITESTREAM_REPLICA_URL, REPLICA_SYNC_INTERVAL, and the LiveKit server's (calls):
# LIVEKIT=off, LIVEKIT_PORT, LIVEKIT_BIND, LIVEKIT_RTC_TCP_PORT, LIVEKIT_UDP_PORTS, LIVEKIT_NODE_IP,
# LIVEKIT_URL, CALL_MAX_PARTICIPANTS (scripts/lib/livekit.mjs), or LIVEKIT_URL with
# LIVEKIT_API_KEY and LIVEKIT_API_SECRET for a LiveKit server run elsewhere.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"

HOST="${HOST:-127.0.0.1}"
PORT="${PORT:-3000}"
PB_HTTP="${PB_HTTP:-127.0.0.1:8090}"
PB_DATA="${PB_DATA:-$root/pb_data}"

bash scripts/ensure-deps.sh

# Translation engine: Apertium APy on loopback (the default provider), unless another is configured.
TRANSLATE_PROVIDER="${TRANSLATE_PROVIDER:-apertium}"
APERTIUM_PORT="${APERTIUM_PORT:-2737}"
start_apertium=false
if [[ "$TRANSLATE_PROVIDER" == "apertium" && -z "${APERTIUM_URL:-}" ]]; then
  if bash scripts/install-apertium.sh; then
    start_apertium=true
    APERTIUM_URL="http://127.0.0.1:$APERTIUM_PORT"
  else
    echo "Apertium could not be installed: translation stays off until a provider is configured." >&2
  fi
fi
export TRANSLATE_PROVIDER APERTIUM_URL

# Links in emails open the web app at this address, and passkeys are bound to it (docs/operating.md).
# On this machine only, it is http://localhost: browsers refuse passkeys at an IP address.
case "$HOST" in
  127.0.0.1 | ::1 | localhost | 0.0.0.0) default_url="http://localhost:$PORT" ;;
  *) default_url="http://$HOST:$PORT" ;;
esac
APP_URL="${APP_URL:-$default_url}"
export APP_URL

mkdir -p "$PB_DATA"
# A data directory without its database (a new disk after a loss) is restored from the replica first.
PB_DATA="$PB_DATA" node scripts/replica.mjs restore --if-missing

credentials="$PB_DATA/superuser-credentials.txt"
if [[ ! -f "$credentials" ]]; then
  email="${PB_SUPERUSER_EMAIL:-admin@chatcrypt.local}"
  password="${PB_SUPERUSER_PASSWORD:-$(node -e 'process.stdout.write(require("crypto").randomBytes(18).toString("hex"))')}"
  ./bin/pocketbase migrate up --dir "$PB_DATA" --migrationsDir "$root/pb_migrations" >/dev/null
  ./bin/pocketbase superuser upsert --dir "$PB_DATA" --migrationsDir "$root/pb_migrations" -- "$email" "$password" >/dev/null
  umask 077
  printf 'PocketBase dashboard superuser\nemail: %s\npassword: %s\n' "$email" "$password" > "$credentials"
  echo "Created the first PocketBase superuser; credentials are in $credentials"
fi

if [[ -z "${SESSION_SECRET:-}" ]]; then
  secret_file="$PB_DATA/.web-session-secret"
  if [[ ! -f "$secret_file" ]]; then
    (umask 077; node -e 'process.stdout.write(require("crypto").randomBytes(32).toString("base64url"))' > "$secret_file")
  fi
  SESSION_SECRET="$(cat "$secret_file")"
fi

start_apertium_flag=false
[[ "$start_apertium" == true ]] && start_apertium_flag=true
export HOST PORT PB_HTTP PB_DATA SESSION_SECRET APERTIUM_PORT
export START_APERTIUM="$start_apertium_flag"

echo
echo "ChatCrypt is starting:"
echo "  web app:               $APP_URL   (passkeys work at this address)"
echo "  PocketBase dashboard:  http://$PB_HTTP/_/   (superuser credentials: $credentials)"
[[ "$start_apertium" == true ]] && echo "  translation engine:    Apertium APy on $APERTIUM_URL (log: $PB_DATA/apertium.log)"
if [[ "${LIVEKIT:-on}" != "off" && -z "${LIVEKIT_API_SECRET:-}" ]]; then
  echo "  calls (LiveKit):       ws://${LIVEKIT_BIND:-127.0.0.1}:${LIVEKIT_PORT:-7880}, media on UDP ${LIVEKIT_UDP_PORTS:-50000-50100} (key: $PB_DATA/.livekit-keys.json)"
fi
echo "Crashed parts restart by themselves. Press Ctrl+C to stop."
exec node scripts/supervise.mjs
