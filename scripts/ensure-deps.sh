#!/usr/bin/env bash
# Installs what the project needs and is missing: npm packages (when package-lock.json changed),
# our PocketBase build, Litestream, the LiveKit server (calls), and the production web build (when
# its sources changed).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"

# One run at a time per checkout: test files that run in parallel each call this script, and two
# builds writing the same build/ (or bin/) at once fail each other. The second waits, then finds
# everything done.
exec 9> "/tmp/chatcrypt-deps-$(printf '%s' "$root" | sha256sum | cut -c1-12).lock"
flock 9

lock_hash="$(sha256sum package-lock.json | cut -d' ' -f1)"
if [[ ! -f node_modules/.chatcrypt-lock || "$(cat node_modules/.chatcrypt-lock)" != "$lock_hash" ]]; then
  echo "Installing npm packages ..."
  # `npm install` rather than `npm ci`: the lockfile pins every version, and npm ci refuses lockfiles
  # that list only this platform's optional packages (rollup, esbuild).
  npm install --no-audit --no-fund
  echo "$lock_hash" > node_modules/.chatcrypt-lock
fi

bash scripts/build-pocketbase.sh
bash scripts/build-oidc-provider.sh
bash scripts/install-litestream.sh
bash scripts/install-livekit.sh

web_hash="$( (find app public -type f | sort | xargs cat; cat remix.config.js vite.config.ts scripts/minify-first-load.ts scripts/emoji-data.ts scripts/build-sw.mjs package-lock.json) | sha256sum | cut -d' ' -f1)"
if [[ ! -f build/server/index.js || ! -f build/.sources || "$(cat build/.sources)" != "$web_hash" ]]; then
  echo "Building the web app ..."
  # Always a production build, whoever calls this (vitest runs with NODE_ENV=test).
  # npm run build: Remix's build, then the service worker (scripts/build-sw.mjs).
  if ! NODE_ENV=production npm run build > build-web.log 2>&1; then
    cat build-web.log >&2
    exit 1
  fi
  echo "$web_hash" > build/.sources
fi
