#!/usr/bin/env bash
# Runs every test. Installs what the suite needs first, so it works on a fresh machine. Fails when
# package-lock.json changed during the run (an install that rewrote it means the lock drifted).
set -euo pipefail
cd "$(dirname "$0")/.."
lock_state="$(mktemp)"
trap 'rm -f "$lock_state"' EXIT
bash scripts/check-lock.sh snapshot "$lock_state"
bash scripts/ensure-system-deps.sh
[ -d node_modules ] || npm ci --no-audit --no-fund
npm run --silent build
node node_modules/typescript/bin/tsc -p web/tsconfig.json --noEmit
npx vitest run "$@"
bash scripts/check-lock.sh verify "$lock_state"
