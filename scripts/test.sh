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
# Everything else the build does not compile (tests, benches, scripts, test/docs' README examples) is typechecked too.
node node_modules/typescript/bin/tsc -p tsconfig.json --noEmit
node node_modules/typescript/bin/tsc -p web/tsconfig.json --noEmit
if [ "$#" -gt 0 ]; then
  npx vitest run "$@"
else
  # The jupyter console flow drives a real terminal program whose Ctrl+C and one-second is_complete timeout
  # race against a loaded machine: it runs on its own after the parallel suites.
  npx vitest run --exclude test/zmq/console-flow.test.ts
  npx vitest run test/zmq/console-flow.test.ts
fi
bash scripts/check-lock.sh verify "$lock_state"
