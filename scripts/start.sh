#!/usr/bin/env bash
# `npm start`: builds the library (and the web notebook when web/ has one), then serves the Jupyter API and
# the web UI on one port. Flags go to the server: npm start -- --port 9000 --no-open
set -euo pipefail
cd "$(dirname "$0")/.."
[ -d node_modules ] || npm install --no-audit --no-fund
if ! npm run --silent build; then
  # tsc still emits JavaScript on type errors; start if the server entry exists.
  [ -f dist/kernel/src/server/main.js ] || { echo "build failed and dist/kernel/src/server/main.js is missing" >&2; exit 1; }
  echo "warning: the build reported type errors; starting with the emitted JavaScript" >&2
fi
if [ -f web/index.html ]; then
  npx vite build --logLevel warn || echo "warning: the web build failed; serving the API only" >&2
fi
exec node --disable-warning=ExperimentalWarning dist/kernel/src/server/main.js "$@"
