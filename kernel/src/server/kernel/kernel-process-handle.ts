/**
 * One forked kernel process as the server sees it: the IPC channel, readiness, and the script it runs.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { createHash, randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { KernelMessage } from '../../../../shared/index.js';
import { buildCompilerSnapshot, compilerSnapshotTarget, readyCompilerSnapshot } from './compiler-snapshot.js';
import { KernelProcessError } from './errors.js';
import { withKernelEnv } from './kernel-env.js';
import type { KernelProcessConfig } from './kernel-process.js';
import type { FromKernel, ToKernel } from './kernel-messages.js';

export interface KernelProcessOptions {
  cwd: string;
  hostModule?: string;
  dataDir?: string;
  /** Someone waits for this process (not a spare): it loads its compiler at once instead of after a first request. */
  eager?: boolean;
}

let bundledEntry: string | undefined;
/** A missed compiler snapshot is built this long after the kernel that missed it started, so they do not compete. */
const SNAPSHOT_BUILD_DELAY_MS = 5000;
/** The kernel's end of the pipe its interrupt watchdog thread reads. */
const WATCHDOG_FD = 4;

/**
 * The kernel process script. From built JS it is the sibling file. From TypeScript sources (tests, tsx) it
 * is bundled once with esbuild instead of run under tsx: tsx's require hook would load cells' imports of
 * the library as separate CommonJS copies, breaking the one-instance rule.
 */
function kernelEntry(): string {
  const here = fileURLToPath(import.meta.url);
  if (here.endsWith('.js')) return path.join(path.dirname(here), 'kernel-process.js');
  if (bundledEntry) return bundledEntry;
  const require = createRequire(import.meta.url);
  const esbuild = require('esbuild') as typeof import('esbuild');
  const root = path.resolve(path.dirname(here), '..', '..', '..', '..');
  const result = esbuild.buildSync({
    entryPoints: [path.join(path.dirname(here), 'kernel-process.ts')],
    bundle: true,
    write: false,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    packages: 'external',
    logLevel: 'silent',
  });
  const code = result.outputFiles[0]!.contents;
  // Named by content and kept inside the repo, so the bundle's bare imports (tslab, ws, zod) resolve from
  // its node_modules and concurrent test workers share one file.
  const hash = createHash('sha256').update(code).digest('hex').slice(0, 16);
  const dir = path.join(root, 'node_modules', '.cache', 'nighthawk-kernel');
  const outfile = path.join(dir, `kernel-process-${hash}.mjs`);
  if (!existsSync(outfile)) {
    mkdirSync(dir, { recursive: true });
    const temp = `${outfile}.${process.pid}.tmp`;
    writeFileSync(temp, code);
    renameSync(temp, outfile);
  }
  bundledEntry = outfile;
  return outfile;
}

/**
 * Builds the compiler snapshot kernel processes in `cwd` would start from, unless it is there, snapshots are off,
 * or another process is building it (see compiler-snapshot.ts). Never rejects.
 */
export function prepareCompilerSnapshot(cwd: string): Promise<boolean> {
  const target = compilerSnapshotTarget(cwd, kernelNodeFlags());
  return target ? buildCompilerSnapshot(target) : Promise.resolve(false);
}

/** The Node flags kernel processes run with (a compiler snapshot is built under the same ones). */
export function kernelNodeFlags(): string[] {
  // NIGHTHAWK_KERNEL_NODE_ARGS adds Node flags to kernel processes only (e.g. `--cpu-prof` to profile a start).
  const extra = process.env['NIGHTHAWK_KERNEL_NODE_ARGS']?.split(/\s+/).filter(Boolean) ?? [];
  // Without forced async-hook checks a loop stopped by the interrupt watchdog (see interrupt-watchdog.ts)
  // leaves the process running, as long as no async hook is enabled.
  // A 2 MB young generation (Node's default grows it to 16 MB) keeps a kernel ~20 MB smaller after its first
  // cell and ~30 MB after importing the library, for about 3% more CPU in this run (bench/notebook-peers
  // prints the RSS beside tslab's). A later --max-semi-space-size in NIGHTHAWK_KERNEL_NODE_ARGS wins.
  return ['--disable-warning=ExperimentalWarning', '--no-force-async-hooks-checks', '--max-semi-space-size=2', ...extra];
}

export class KernelProcess {
  readonly child: ChildProcess;
  readonly session = randomUUID();
  /** Resolves when the compiler and host have loaded (a warm process). */
  readonly ready: Promise<void>;
  /** Resolves when the process takes messages; requests queue inside it until it is ready. */
  readonly accepting: Promise<void>;
  onMessage: (route: string | null, msg: KernelMessage<object>) => void = () => {};
  onExecuting: (msgId: string) => void = () => {};
  onInterruptHandled: (msgId: string) => void = () => {};
  onPrepared: () => void = () => {};
  onExit: (code: number | null) => void = () => {};
  exited = false;
  /** The compiler and host have loaded (before that a blocked event loop is the load itself). */
  warm = false;

  constructor(options: KernelProcessOptions) {
    const execArgv = kernelNodeFlags();
    // A process someone waits for starts from the compiler snapshot of its working directory when one was built
    // (compiler-snapshot.ts): ~1.4 s less to a first result, for ~115 MB more resident memory (the blob stays in memory).
    // A spare has time to build its program before anyone asks, so it keeps the smaller footprint. The first miss
    // builds the blob in the background for the next one.
    let blob: string | undefined;
    if (options.eager) {
      const target = compilerSnapshotTarget(options.cwd, execArgv);
      blob = readyCompilerSnapshot(target);
      if (blob) execArgv.push('--snapshot-blob', blob);
      else if (target) setTimeout(() => void buildCompilerSnapshot(target), SNAPSHOT_BUILD_DELAY_MS).unref();
    }
    const config: KernelProcessConfig = { session: this.session, hostModule: options.hostModule, dataDir: options.dataDir, watchdogFd: WATCHDOG_FD, ...(options.eager ? { eager: true } : {}) };
    this.child = fork(kernelEntry(), [JSON.stringify(config)], {
      cwd: options.cwd,
      env: withKernelEnv(process.env),
      execArgv,
      stdio: ['ignore', 'inherit', 'inherit', 'ipc', 'pipe'],
    });
    let accepted = false;
    let accept!: () => void;
    let refuse!: (error: Error) => void;
    this.accepting = new Promise<void>((resolve, reject) => {
      accept = () => {
        accepted = true;
        resolve();
      };
      refuse = reject;
    });
    this.ready = new Promise<void>((resolve, reject) => {
      this.child.on('message', (message: FromKernel) => {
        if (message.kind === 'accepting') accept();
        else if (message.kind === 'ready') {
          this.warm = true;
          accept();
          resolve();
        } else if (message.kind === 'fatal') {
          const error = new KernelProcessError({ message: `Kernel process failed to start: ${message.message}` });
          refuse(error);
          reject(error);
        } else if (message.kind === 'message') this.onMessage(message.route, message.msg);
        else if (message.kind === 'executing') this.onExecuting(message.msgId);
        else if (message.kind === 'interrupt-handled') this.onInterruptHandled(message.msgId);
        else if (message.kind === 'prepared') this.onPrepared();
      });
      this.child.on('exit', (code) => {
        this.exited = true;
        // A process that died before taking messages may not have started from its blob at all (V8 refuses a blob
        // built under other flags, a damaged file): it is deleted, and the next kernel starts without it.
        if (blob && !accepted) rmSync(blob, { force: true });
        const error = new KernelProcessError({ message: `Kernel process exited with code ${code} before it was ready` });
        refuse(error);
        reject(error);
        this.onExit(code);
      });
    });
    this.ready.catch(() => {});
    this.accepting.catch(() => {});
  }

  /** Asks the kernel's watchdog thread to stop the JavaScript running on its main thread. */
  terminateExecution(): void {
    const line = this.child.stdio[WATCHDOG_FD];
    if (this.exited || !line || !('write' in line)) return;
    line.write('T');
  }

  send(message: ToKernel): void {
    if (this.exited || !this.child.connected) return;
    this.child.send(message);
  }

  kill(): void {
    if (!this.exited) this.child.kill('SIGKILL');
  }
}
