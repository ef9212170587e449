#!/usr/bin/env bash
# Starts the whole product: PocketBase (with our migrations and hooks) and the web app.
# Settings (environment): HOST, PORT (web app, default 127.0.0.1:3000), PB_HTTP (PocketBase,
# default 127.0.0.1:8090), PB_DATA (PocketBase data directory, default ./pb_data).
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

# Links in verification emails open the web app at this address (docs/operating.md).
APP_URL="${APP_URL:-http://$HOST:$PORT}"
export APP_URL

mkdir -p "$PB_DATA"
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

pids=()
cleanup() {
  trap - EXIT INT TERM
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  wait 2>/dev/null || true
}
trap cleanup EXIT INT TERM

if [[ "$start_apertium" == true ]]; then
  bash scripts/start-apertium.sh "$APERTIUM_PORT" > "$PB_DATA/apertium.log" 2>&1 &
  pids+=($!)
fi

./bin/pocketbase serve --http "$PB_HTTP" --dir "$PB_DATA" \
  --migrationsDir "$root/pb_migrations" --hooksDir "$root/pb_hooks" --hooksWatch=false --automigrate=false &
pids+=($!)

for _ in $(seq 1 100); do
  if node -e "fetch('http://$PB_HTTP/api/health').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"; then break; fi
  sleep 0.2
done

NODE_ENV=production PB_URL="http://$PB_HTTP" SESSION_SECRET="$SESSION_SECRET" HOST="$HOST" PORT="$PORT" \
  node server.mjs &
pids+=($!)

echo
echo "ChatCrypt is running:"
echo "  web app:               http://$HOST:$PORT"
echo "  PocketBase dashboard:  http://$PB_HTTP/_/   (superuser credentials: $credentials)"
[[ "$start_apertium" == true ]] && echo "  translation engine:    Apertium APy on $APERTIUM_URL (log: $PB_DATA/apertium.log)"
echo "Press Ctrl+C to stop."
wait -n "${pids[@]}"
