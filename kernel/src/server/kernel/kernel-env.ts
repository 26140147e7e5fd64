/**
 * Environment settings a kernel process starts with (read by the C library at exec, so set by whoever starts
 * the kernel: the server's fork, and the kernelspec's `env` for Jupyter).
 *
 * glibc gives threads that allocate their own malloc arenas (up to 8 per core); a kernel's V8 platform
 * threads, libuv pool and interrupt watchdog thread each fill one, and what they free stays in the process.
 * Two arenas kept a kernel ~9 MB smaller after its first cell and ~6 MB after importing the library, with
 * the same first-cell and import times (web server kernel, 3 runs each; bench/notebook-peers.bench.ts and
 * bench/zmq-kernel.bench.ts print the RSS beside tslab's). Other C libraries ignore the variable.
 */
export const KERNEL_ENV: Readonly<Record<string, string>> = { MALLOC_ARENA_MAX: '2' };

/** `env` with KERNEL_ENV added; a value already set there (by the user) wins. */
export function withKernelEnv(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const out: NodeJS.ProcessEnv = { ...env };
  for (const [name, value] of Object.entries(KERNEL_ENV)) if (out[name] === undefined) out[name] = value;
  return out;
}
