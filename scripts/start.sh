#!/usr/bin/env bash
# `npm start`: builds the library (and the web notebook when web/ has one) when their sources changed since the
# last successful build, then serves the Jupyter API and the web UI on one port. Flags go to the server:
# npm start -- --port 9000 --no-open. NIGHTHAWK_FORCE_BUILD=1 rebuilds regardless.
set -euo pipefail
cd "$(dirname "$0")/.."
[ -d node_modules ] || npm install --no-audit --no-fund

# True when STAMP is missing or any file under the given paths is newer than it (build outputs excluded).
stale() {
  local stamp="$1"
  shift
  [ -n "${NIGHTHAWK_FORCE_BUILD:-}" ] && return 0
  [ -f "$stamp" ] || return 0
  [ -n "$(find "$@" \( -name dist -o -name node_modules \) -prune -o -type f -newer "$stamp" -print -quit 2>/dev/null)" ]
}

LIB_STAMP=dist/.nighthawk-build-stamp
if stale "$LIB_STAMP" kernel/src shared tsconfig.json tsconfig.build.json package.json package-lock.json; then
  # Stamped with the time the build started, so an edit made during the build is built next time.
  started="$(mktemp)"
  if npm run --silent build; then
    mv "$started" "$LIB_STAMP"
  else
    rm -f "$started"
    # tsc still emits JavaScript on type errors; start if the server entry exists.
    [ -f dist/kernel/src/server/main.js ] || { echo "build failed and dist/kernel/src/server/main.js is missing" >&2; exit 1; }
    echo "warning: the build reported type errors; starting with the emitted JavaScript" >&2
  fi
else
  echo "library build is up to date (skipped)"
fi

WEB_STAMP=web/dist/.nighthawk-build-stamp
if [ -f web/index.html ]; then
  if stale "$WEB_STAMP" web shared vite.config.ts package.json package-lock.json; then
    started="$(mktemp)"
    if npx vite build --logLevel warn; then
      mv "$started" "$WEB_STAMP"
    else
      rm -f "$started"
      echo "warning: the web build failed; serving the API only" >&2
    fi
  else
    echo "web build is up to date (skipped)"
  fi
fi
exec node --disable-warning=ExperimentalWarning dist/kernel/src/server/main.js "$@"
