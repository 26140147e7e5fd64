#!/usr/bin/env bash
# Runs every benchmark under bench/ in turn. Each prints `BENCH <name> p50_ms=… p99_ms=… [baseline_p50_ms=… ratio=…]`.
set -euo pipefail
cd "$(dirname "$0")/.."
[ -d node_modules ] || npm install --no-audit --no-fund
# A machine that cannot install them still runs every benchmark; those beside a missing peer print no baseline.
bash scripts/ensure-system-deps.sh --bench || echo "warning: system packages could not be installed" >&2
status=0
for f in bench/*.bench.ts; do
  [ -e "$f" ] || continue
  echo "# $f"
  npx tsx "$f" || { echo "benchmark failed: $f" >&2; status=1; }
done
exit $status
