#!/usr/bin/env bash
# Lock drift guard: `check-lock.sh snapshot FILE` records package-lock.json's digest in FILE;
# `check-lock.sh verify FILE` fails (exit 1, showing the diff) when the lock changed since the snapshot.
# An install that rewrites the lock means the lock no longer installs as committed (`npm ci` would differ).
set -euo pipefail
cd "$(dirname "$0")/.."
mode="${1:?usage: check-lock.sh snapshot|verify FILE}"
state="${2:?usage: check-lock.sh snapshot|verify FILE}"
digest() { sha256sum package-lock.json | cut -d' ' -f1; }
case "$mode" in
  snapshot) digest >"$state" ;;
  verify)
    if [ "$(digest)" != "$(cat "$state")" ]; then
      echo "package-lock.json changed during the run: the lock is out of sync with package.json." >&2
      echo "Regenerate it with 'npm install', commit it, and check that 'npm ci' leaves it unchanged." >&2
      git --no-pager diff --stat -- package-lock.json >&2 || true
      exit 1
    fi ;;
  *) echo "unknown mode $mode" >&2; exit 2 ;;
esac
