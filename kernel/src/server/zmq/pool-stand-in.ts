/**
 * The shell that stands in for a pooled kernel. Jupyter watches, signals and kills the process it started; when
 * the pool serves a launch, that process only relays signals and waits. A node launcher doing so held ~9 MB of
 * private memory beside the kernel (bare Node holds 6); `/bin/sh` holds ~0.3 MB. `kernel install` writes the
 * script beside kernel.json and points argv at it, followed by the kernel's own command line.
 *
 * The script asks the pool through a short-lived node process (`kernel run … --pool-stand-in DIR`, pool-launch.ts)
 * only when a pool socket exists; otherwise, or when no spare takes the launch, it `exec`s the kernel's command
 * line, so a cold kernel is the process Jupyter started, as without the pool. Two FIFOs in a private directory
 * carry the lifetimes: the kernel reads end-of-file on `launcher` once the shell is gone (even by SIGKILL, which
 * cannot be relayed), and the shell's reader sees end-of-file on `kernel` once the kernel is gone.
 */
import { closeSync, constants, fstatSync, lstatSync, openSync, type Stats } from 'node:fs';
import net from 'node:net';
import path from 'node:path';

export const STAND_IN_SCRIPT_NAME = 'pool-launch.sh';

/** The FIFO the kernel reads (the shell holds its write end) and the one the shell reads (the kernel holds it). */
export const LAUNCHER_FIFO = 'launcher';
export const KERNEL_FIFO = 'kernel';

/** Set by the shell for the process asking the pool only: the shell's parent, the client that started it. */
export const STAND_IN_PARENT_VARIABLE = 'NIGHTHAWK_STAND_IN_PARENT_PID';

// POSIX sh only (dash, bash, busybox). kernel-pool.ts decides the same things again in node: a wrong guess here
// costs one extra node start (or a cold start), never a different kernel.
export const STAND_IN_SCRIPT = `#!/bin/sh
# Written by \`nighthawk-ts kernel install\`: starts the Nighthawk TS kernel whose command line is "$@", from the
# user's kernel pool when a warm spare there takes the launch (this shell then stands in for it), else cold.
case "\${NIGHTHAWK_KERNEL_POOL:-}" in
  [Oo][Ff][Ff]|0|[Ff][Aa][Ll][Ss][Ee]|[Nn][Oo]) exec "$@" ;;
esac
pool=\${NIGHTHAWK_KERNEL_POOL_DIR:-}
if [ -z "$pool" ]; then
  if [ -n "\${XDG_RUNTIME_DIR:-}" ]; then
    pool=$XDG_RUNTIME_DIR/nighthawk-kernels
  else
    tmp=\${TMPDIR:-\${TMP:-\${TEMP:-/tmp}}}
    pool=\${tmp%/}/nighthawk-kernels-$(id -u)
  fi
fi
daemon=
for sock in "$pool"/*.sock; do
  if [ -S "$sock" ]; then daemon=1; break; fi
done
# No daemon: the kernel starts cold in this process and starts one for the next launch.
[ -n "$daemon" ] || exec "$@"
dir=$(mktemp -d "\${TMPDIR:-/tmp}/nighthawk-launch.XXXXXX" 2>/dev/null) || exec "$@"
if ! mkfifo -m 600 "$dir/${LAUNCHER_FIFO}" "$dir/${KERNEL_FIFO}" 2>/dev/null; then
  rm -rf "$dir"
  exec "$@"
fi
# Held for this shell's life (read-write: opening never waits); nothing else may hold it, or a kernel would
# outlive a killed launcher.
exec 3<>"$dir/${LAUNCHER_FIFO}"
# Waits for the kernel to open its end, then for end-of-file: the kernel is gone.
( exec 3>&-; read -r _ <"$dir/${KERNEL_FIFO}" ) &
reader=$!
pid=
trap '[ -n "$pid" ] && kill -INT "$pid" 2>/dev/null' INT
trap '[ -n "$pid" ] && kill -TERM "$pid" 2>/dev/null' TERM
trap '[ -n "$pid" ] && kill -HUP "$pid" 2>/dev/null' HUP
# $PPID is the client that started this shell: the kernel watches it when the client names itself nowhere else.
answer=$(${STAND_IN_PARENT_VARIABLE}=$PPID "$@" --pool-stand-in "$dir" 3>&-)
case "$answer" in
  ''|*[!0-9]*)
    # No spare took the launch, or asking failed: the kernel starts cold here, and meets any failure itself.
    kill "$reader" 2>/dev/null
    exec 3>&-
    rm -rf "$dir"
    trap - INT TERM HUP
    exec "$@" --no-pool
    ;;
esac
# The kernel opened both ends before answering: the names are no longer needed.
rm -rf "$dir"
pid=$answer
while :; do
  wait "$reader"
  # A relayed signal interrupts wait; only the reader's end means the kernel's.
  kill -0 "$reader" 2>/dev/null || break
done
exit 0
`;

export class StandInRefused extends Error {
  override readonly name = 'StandInRefused';
}

/**
 * Checks that `dir` is a directory of this user's alone holding the two FIFOs, also this user's: the kernel
 * opens them, and a launch names them.
 */
export function checkStandInDir(dir: string): { launcher: Stats; kernel: Stats } {
  if (!path.isAbsolute(dir)) throw new StandInRefused(`the stand-in directory ${dir} is not an absolute path`);
  const uid = process.getuid?.();
  const stat = lstatSync(dir);
  if (!stat.isDirectory() || stat.uid !== uid || (stat.mode & 0o077) !== 0) throw new StandInRefused(`the stand-in directory ${dir} is not a private directory of this user`);
  const fifo = (name: string): Stats => {
    const found = lstatSync(path.join(dir, name));
    if (!found.isFIFO() || found.uid !== uid) throw new StandInRefused(`${path.join(dir, name)} is not a FIFO of this user`);
    return found;
  };
  return { launcher: fifo(LAUNCHER_FIFO), kernel: fifo(KERNEL_FIFO) };
}

/** Opens `file` and checks it is still the FIFO `checked` saw, not one swapped in between. */
function openChecked(file: string, flags: number, checked: Stats): number {
  const fd = openSync(file, flags | constants.O_NONBLOCK);
  const opened = fstatSync(fd);
  if (opened.ino !== checked.ino || opened.dev !== checked.dev) {
    closeSync(fd);
    throw new StandInRefused(`${file} changed while it was opened`);
  }
  return fd;
}

/**
 * Opens the kernel's ends of the stand-in's FIFOs and returns the one that ends when the shell is gone. The other
 * is never written nor closed: the shell reads end-of-file on it when this process exits. Neither open waits;
 * both descriptors close on exec.
 */
export function openStandIn(dir: string): net.Socket {
  const checked = checkStandInDir(dir);
  const fd = openChecked(path.join(dir, LAUNCHER_FIFO), constants.O_RDONLY, checked.launcher);
  // Read-write: the shell's reader may not have its end open yet, and a write-only open would then fail.
  try {
    openChecked(path.join(dir, KERNEL_FIFO), constants.O_RDWR, checked.kernel);
  } catch (error) {
    closeSync(fd);
    throw error;
  }
  return new net.Socket({ fd, readable: true, writable: false });
}
