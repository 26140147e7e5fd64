/**
 * The spare pool refills a little after a hand-out, not at once: a new spare loads the compiler for seconds
 * of CPU, which would compete with the first cells of the kernel just handed out. waitForSpare still
 * resolves with a warm spare.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { expect, test } from 'vitest';
import { startKernelServer } from '../support/kernel-server.js';

/** Live kernel processes forked by this test process (their command line names the kernel entry). */
function kernelChildren(): number {
  let count = 0;
  for (const pid of readdirSync('/proc').filter((p) => /^\d+$/.test(p))) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (ppid !== process.pid) continue;
      if (/kernel-process/.test(readFileSync(`/proc/${pid}/cmdline`, 'utf8'))) count++;
    } catch {
      // the process exited meanwhile
    }
  }
  return count;
}

test('handing out the spare starts its replacement later, and waitForSpare waits for it to be warm', async () => {
  const fx = await startKernelServer({ spareKernels: 1 });
  try {
    await fx.server.kernels.waitForSpare();
    expect(kernelChildren()).toBe(1);
    const kernel = await fx.kernels.startNew();
    // The handed-out spare is the only kernel process for now (the refill waits 2 s after the hand-out).
    expect(kernelChildren()).toBe(1);
    await kernel.info;
    await fx.server.kernels.waitForSpare();
    expect(kernelChildren()).toBe(2);
    await kernel.shutdown();
  } finally {
    await fx.close();
  }
}, 60_000);
