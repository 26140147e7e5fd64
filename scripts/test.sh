#!/usr/bin/env bash
# Runs every test. Installs what the suite needs first, so it works on a fresh machine.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/ensure-system-deps.sh
[ -d node_modules ] || npm install --no-audit --no-fund
npm run --silent build
node node_modules/typescript/bin/tsc -p web/tsconfig.json --noEmit
npx vitest run "$@"
