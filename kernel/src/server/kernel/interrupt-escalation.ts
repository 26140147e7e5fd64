/**
 * What the server does when an interrupt is not handled: the interrupt message stops awaiting cells and
 * SIGINT stops synchronous ones (kernel-manager.ts). Code that never yields to the event loop (a microtask
 * spin, a loop in a timer callback) handles neither, so after TERMINATE_AFTER_MS the kernel's watchdog
 * thread terminates the running JavaScript, and if the kernel still has not handled the interrupt after
 * RESTART_AFTER_MS (or died doing so) the kernel is restarted and the cells waiting on it say why.
 */
import type { KernelProcess } from './kernel-process-handle.js';

export const TERMINATE_AFTER_MS = 1_500;
export const RESTART_AFTER_MS = 5_000;

export const RESTARTED_BY_INTERRUPT =
  'The interrupt could not stop the running code (it never yields to the event loop, e.g. a loop in microtasks or in a timer callback), so the kernel was restarted: its variables and Session state are lost.';

export class InterruptEscalation {
  private process: KernelProcess | undefined;
  private timers: NodeJS.Timeout[] = [];
  /** Set once the watchdog was used and until the kernel handled the interrupt. */
  private terminating = false;

  /** Starts (or restarts) the watch for an interrupt just sent to `process`. */
  begin(process: KernelProcess, restart: () => void): void {
    this.clear();
    if (!process.warm) return; // a loading kernel is busy compiling, not stuck
    this.process = process;
    const terminate = setTimeout(() => {
      if (this.process !== process) return;
      this.terminating = true;
      process.terminateExecution();
    }, TERMINATE_AFTER_MS);
    const giveUp = setTimeout(() => {
      if (this.process !== process || process.exited) return;
      this.terminating = true;
      restart();
    }, RESTART_AFTER_MS);
    terminate.unref();
    giveUp.unref();
    this.timers = [terminate, giveUp];
  }

  /** The kernel handled the interrupt message: it is responsive again. */
  handled(process: KernelProcess): void {
    if (process === this.process) this.clear();
  }

  /** Why `process` went away, when it was this escalation (read once, when it exits). */
  exitReason(process: KernelProcess): string | undefined {
    if (process !== this.process || !this.terminating) return undefined;
    this.clear();
    return RESTARTED_BY_INTERRUPT;
  }

  clear(): void {
    for (const timer of this.timers) clearTimeout(timer);
    this.timers = [];
    this.process = undefined;
    this.terminating = false;
  }
}
