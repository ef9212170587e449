#!/usr/bin/env bash
# npm run bench: installs what the bench needs, raises the open-file limit and runs bench/run.mjs
# (docs/benchmarks.md). Every simulated page holds one socket in the bench process and one in a web
# process, so the soft limit goes up to the hard limit (at most 65,536); PocketBase and the web server
# inherit it.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"

# Sealed channels' MLS costs (bench/mls.mjs) run in Node alone: BENCH_PHASES=mls runs only them.
if [[ ",${BENCH_PHASES:-mls}," == *",mls,"* ]]; then node bench/mls.mjs && node bench/direct.mjs; fi
if [[ "${BENCH_PHASES:-}" == mls ]]; then exit 0; fi

bash scripts/install-chromium.sh
bash scripts/ensure-deps.sh

# Sign-ups under a crowd against the whole product (Litestream included): BENCH_PHASES=signup runs only it.
if [[ ",${BENCH_PHASES:-signup}," == *",signup,"* ]]; then node bench/signup-crowd.mjs; fi
if [[ "${BENCH_PHASES:-}" == signup ]]; then exit 0; fi

# Web Push to the push service stand-in on loopback (bench/push.ts): BENCH_PHASES=push runs only it.
if [[ ",${BENCH_PHASES:-push}," == *",push,"* ]]; then npx vite-node bench/push.ts; fi
if [[ "${BENCH_PHASES:-}" == push ]]; then exit 0; fi

# Six concurrent 50 MB uploads and the web process's memory (bench/uploads.ts): BENCH_PHASES=uploads runs only it.
if [[ ",${BENCH_PHASES:-uploads}," == *",uploads,"* ]]; then npx vite-node bench/uploads.ts; fi
if [[ "${BENCH_PHASES:-}" == uploads ]]; then exit 0; fi

# A DM created one second after the other's sign-up, in chromium (bench/first-dm.ts): BENCH_PHASES=first-dm runs only it.
if [[ ",${BENCH_PHASES:-first-dm}," == *",first-dm,"* ]]; then npx vite-node bench/first-dm.ts; fi
if [[ "${BENCH_PHASES:-}" == first-dm ]]; then exit 0; fi

# New device approval to full history shown (1,000 DM messages), in chromium (bench/new-device.ts): BENCH_PHASES=new-device runs only it.
if [[ ",${BENCH_PHASES:-new-device}," == *",new-device,"* ]]; then npx vite-node bench/new-device.ts; fi
if [[ "${BENCH_PHASES:-}" == new-device ]]; then exit 0; fi

# Deactivating a person in many sealed channels and DMs, in chromium (bench/deactivate.ts): BENCH_PHASES=deactivate runs only it.
if [[ ",${BENCH_PHASES:-deactivate}," == *",deactivate,"* ]]; then npx vite-node bench/deactivate.ts; fi
if [[ "${BENCH_PHASES:-}" == deactivate ]]; then exit 0; fi

# Calls through the real LiveKit server in chromium (bench/calls.ts): BENCH_PHASES=calls runs only it.
if [[ ",${BENCH_PHASES:-calls}," == *",calls,"* ]]; then npx vite-node bench/calls.ts; fi
if [[ "${BENCH_PHASES:-}" == calls ]]; then exit 0; fi

hard="$(ulimit -Hn)"
if [[ "$hard" == unlimited || "$hard" -gt 65536 ]]; then hard=65536; fi
ulimit -n "$hard"
exec node bench/run.mjs "$@"
