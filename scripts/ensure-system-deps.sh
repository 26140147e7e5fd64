#!/usr/bin/env bash
# Debian packages the tests drive: chromium (UI tests) and the Jupyter tools (interoperability tests);
# with --bench also the peers the benchmarks compare against.
set -euo pipefail
missing=()
[ -x /usr/bin/chromium ] || missing+=(chromium)
[ -x /usr/bin/jupyter ] || missing+=(jupyter-client jupyter-server jupyter-console)
/usr/bin/python3 -c 'import jupyter_kernel_test' 2>/dev/null || missing+=(python3-jupyter-kernel-test)
/usr/bin/python3 -c 'import pexpect' 2>/dev/null || missing+=(python3-pexpect)
/usr/bin/python3 -c 'import jupyterlab_server' 2>/dev/null || missing+=(python3-jupyterlab-server)
# --bench: the peers the benchmarks measure against (Jupyter Notebook 6 runs tslab's kernel beside ours),
# probed as bench/notebook-peers.bench.ts does.
if [ "${1:-}" = "--bench" ]; then
  /usr/bin/python3 -c 'import notebook' 2>/dev/null || missing+=(jupyter-notebook)
fi
if [ ${#missing[@]} -gt 0 ]; then
  if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null; then
    echo "Installing system packages: ${missing[*]}"
    apt-get update -qq >/dev/null
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
  else
    echo "warning: missing system packages (${missing[*]}); tests and benchmarks that need them will fail or print no baseline" >&2
  fi
fi
