#!/usr/bin/env bash
# The newcomer's path, checked on a fresh clone of the committed tree:
#   npm ci && npx nighthawk-ts kernel install --prefix <tmp>
# with no other step (the `prepare` script builds dist/), then `git status` must be clean.
#
#   scripts/fresh-clone-check.sh [--reuse-node-modules DIR] [SOURCE_REPO]
#
# Default: a real `npm ci` from the registry or npm cache (minutes: better-sqlite3 compiles from source).
# --reuse-node-modules DIR hard-links DIR/node_modules into the clone and runs `npm install --offline`
# instead, which still checks the lock is in sync and runs the same `prepare` lifecycle; the test suite
# uses this fast path. Prints the clone directory on success; exits non-zero naming the failed step.
set -euo pipefail
reuse=""
if [ "${1:-}" = "--reuse-node-modules" ]; then reuse="$2"; shift 2; fi
source_repo="${1:-$(cd "$(dirname "$0")/.." && pwd)}"
work="$(mktemp -d "${TMPDIR:-/tmp}/nighthawk-fresh-clone-XXXXXX")"
step() { echo "fresh-clone-check: $*" >&2; }
fail() {
  echo "fresh-clone-check: FAILED: $*" >&2
  [ -n "${NIGHTHAWK_KEEP_FRESH_CLONE:-}" ] || rm -rf "$work"
  exit 1
}

step "cloning $source_repo into $work/clone"
git clone --quiet "$source_repo" "$work/clone" || fail "git clone"
cd "$work/clone"
# npx must not find an entry cached by an earlier, failed attempt elsewhere: a private npm cache for it.
export npm_config_cache="$work/npm-cache"
if [ -n "$reuse" ]; then
  [ -d "$reuse/node_modules" ] || fail "no node_modules in $reuse"
  cp -al "$reuse/node_modules" node_modules 2>/dev/null || cp -a "$reuse/node_modules" node_modules
  # The copy's own build output and caches are not part of a fresh install.
  rm -rf node_modules/.cache
  # npm may rewrite its hidden lockfile: a private copy, so the source checkout's is never touched.
  if [ -f node_modules/.package-lock.json ]; then rm node_modules/.package-lock.json && cp "$reuse/node_modules/.package-lock.json" node_modules/; fi
  step "npm install --offline (reusing hard-linked node_modules; runs prepare)"
  npm install --offline --no-audit --no-fund --loglevel=error >&2 || fail "npm install --offline"
else
  unset npm_config_cache # a real install may use the shared npm cache
  step "npm ci"
  npm ci --no-audit --no-fund --loglevel=error >&2 || fail "npm ci"
  export npm_config_cache="$work/npm-cache"
fi
[ -x dist/kernel/src/cli.js ] || fail "dist/kernel/src/cli.js was not built by the install (prepare)"
step "npx nighthawk-ts kernel install --prefix $work/prefix"
npx --no-install nighthawk-ts kernel install --prefix "$work/prefix" >&2 || fail "npx nighthawk-ts kernel install"
[ -f "$work/prefix/share/jupyter/kernels/nighthawk/kernel.json" ] || fail "no kernel.json under $work/prefix"
dirty="$(git status --porcelain)"
[ -z "$dirty" ] || fail "git status is not clean after install:
$dirty"
step "ok"
echo "$work/clone"
