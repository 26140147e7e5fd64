/**
 * Shared setup for the ZeroMQ kernel tests: the built library (the kernel runs dist, like Jupyter will),
 * a kernelspec installed into a temporary prefix, an isolated Jupyter environment for Debian's Python
 * Jupyter packages (/usr/bin/python3), and a way to run the Python drivers in test/zmq/py.
 */
import { execFile, execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureBuilt } from '../../kernel/src/server/runner/nb-build.js';
import { isolatedJupyterEnv } from '../support/jupyter-env.js';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
export const pyDir = path.join(root, 'test', 'zmq', 'py');
export const builtCli = path.join(root, 'dist', 'kernel', 'src', 'cli.js');
export const PYTHON = '/usr/bin/python3';

export function ensureKernelBuilt(): void {
  ensureBuilt(() => {});
  // A build from before the CLI existed is not stale by source dates but lacks it.
  if (!existsSync(builtCli)) execFileSync(process.execPath, [path.join(root, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', 'tsconfig.build.json'], { cwd: root, stdio: 'ignore' });
}

export interface JupyterEnv {
  dir: string;
  prefix: string;
  kernelName: string;
  env: NodeJS.ProcessEnv;
  cleanup(): void;
}

/** Installs the kernelspec with the built CLI (`kernel install --prefix`) into a fresh Jupyter environment. */
export async function installedKernel(options: { name?: string; extraInstallArgs?: string[] } = {}): Promise<JupyterEnv> {
  ensureKernelBuilt();
  const dir = mkdtempSync(path.join(tmpdir(), 'nh-zmq-'));
  const prefix = path.join(dir, 'prefix');
  const kernelName = options.name ?? 'nighthawk-test';
  for (const sub of ['runtime', 'data', 'config', 'ipython']) mkdirSync(path.join(dir, sub), { recursive: true });
  const env = isolatedJupyterEnv(dir, { IPYTHONDIR: path.join(dir, 'ipython'), NIGHTHAWK_KERNEL_NAME: kernelName });
  delete env['PYTHONPATH'];
  delete env['VIRTUAL_ENV'];
  await run(process.execPath, [builtCli, 'kernel', 'install', '--prefix', prefix, '--name', kernelName, ...(options.extraInstallArgs ?? [])], { env, cwd: root });
  return { dir, prefix, kernelName, env, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

export interface RunResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs a program to completion; never rejects for a non-zero exit (callers assert on it). */
export function run(file: string, args: string[], options: { env?: NodeJS.ProcessEnv; cwd?: string; timeoutMs?: number } = {}): Promise<RunResult> {
  return new Promise((resolve) => {
    execFile(file, args, { env: options.env, cwd: options.cwd ?? root, timeout: options.timeoutMs ?? 120_000, maxBuffer: 64 * 1024 * 1024 }, (error, stdout, stderr) => {
      const code = error ? (typeof (error as { code?: unknown }).code === 'number' ? ((error as { code: number }).code) : null) : 0;
      resolve({ code, stdout: String(stdout), stderr: String(stderr) });
    });
  });
}

export function runPython(script: string, args: string[], jupyter: JupyterEnv, timeoutMs?: number): Promise<RunResult> {
  return run(PYTHON, [path.join(pyDir, script), ...args], { env: jupyter.env, cwd: jupyter.dir, timeoutMs });
}

/** Runs a script from test/zmq/py that prints one JSON report as its last line, and returns that report. */
export async function runPythonReport<T>(script: string, args: string[], jupyter: JupyterEnv, timeoutMs?: number): Promise<T> {
  const result = await runPython(script, args, jupyter, timeoutMs);
  const last = result.stdout.trim().split('\n').at(-1) ?? '';
  try {
    return JSON.parse(last) as T;
  } catch {
    throw new Error(`${script} printed no report (exit ${result.code})\n${result.stdout}\n${result.stderr}`);
  }
}
