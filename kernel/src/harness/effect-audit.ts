/**
 * Detective in-process audit of direct perimeter effects. While a run host is active and no gateway
 * allowance is live, file writes and deletes, sockets, HTTP requests and child processes started by
 * interior code are refused and recorded as `unmediated_perimeter_effect` trace anomalies.
 *
 * This is detective, not confinement: it patches the Node APIs that a host context can observe.
 * Native addons, worker threads, code that captured the original functions before installation, and
 * work outside the propagated async context are not seen. Deployments that need a boundary must
 * configure real external confinement.
 */
import childProcess from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import { syncBuiltinESMExports } from 'node:module';
import net from 'node:net';
import { interiorWithoutAllowance } from './host-context.js';
import { UnmediatedPerimeterEffectError } from './run-errors.js';

let installed = false;

function refuseIfInterior(effect: string): void {
  const frame = interiorWithoutAllowance();
  if (!frame) return;
  frame.host.recordAnomaly('unmediated_perimeter_effect', { effect }, frame.submitterId);
  throw new UnmediatedPerimeterEffectError({ effect });
}

type AnyFn = (...args: never[]) => unknown;

function guard(target: Record<string, unknown>, name: string, label: string, when?: (args: unknown[]) => boolean): void {
  const original = target[name];
  if (typeof original !== 'function') return;
  const wrapped = function (this: unknown, ...args: unknown[]) {
    if (!when || when(args)) refuseIfInterior(label);
    return (original as AnyFn).apply(this, args as never[]);
  };
  Object.defineProperty(wrapped, 'name', { value: (original as AnyFn).name });
  target[name] = wrapped;
}

const WRITE_FLAGS = /[wa+]/;
const opensForWrite = (args: unknown[]) => {
  const flags = args[1];
  return typeof flags === 'string' ? WRITE_FLAGS.test(flags) : typeof flags === 'number' ? (flags & (fs.constants.O_WRONLY | fs.constants.O_RDWR)) !== 0 : false;
};

/** Installs the process-wide audit patches once. Idempotent; has no effect outside host contexts. */
export function installEffectAudit(): void {
  if (installed) return;
  installed = true;
  const fsWrites = ['writeFile', 'writeFileSync', 'appendFile', 'appendFileSync', 'unlink', 'unlinkSync', 'rm', 'rmSync', 'rmdir', 'rmdirSync', 'rename', 'renameSync', 'truncate', 'truncateSync', 'copyFile', 'copyFileSync', 'createWriteStream', 'symlink', 'symlinkSync', 'chmod', 'chmodSync'];
  for (const name of fsWrites) guard(fs as unknown as Record<string, unknown>, name, `fs.${name}`);
  guard(fs as unknown as Record<string, unknown>, 'open', 'fs.open(write)', opensForWrite);
  guard(fs as unknown as Record<string, unknown>, 'openSync', 'fs.openSync(write)', opensForWrite);
  const promises = fs.promises as unknown as Record<string, unknown>;
  for (const name of ['writeFile', 'appendFile', 'unlink', 'rm', 'rmdir', 'rename', 'truncate', 'copyFile', 'symlink', 'chmod']) guard(promises, name, `fs.promises.${name}`);
  guard(promises, 'open', 'fs.promises.open(write)', opensForWrite);
  guard(net.Socket.prototype as unknown as Record<string, unknown>, 'connect', 'net.Socket.connect');
  for (const mod of [http, https] as unknown as Record<string, unknown>[]) {
    guard(mod, 'request', mod === (http as unknown) ? 'http.request' : 'https.request');
    guard(mod, 'get', mod === (http as unknown) ? 'http.get' : 'https.get');
  }
  for (const name of ['spawn', 'spawnSync', 'exec', 'execSync', 'execFile', 'execFileSync', 'fork']) {
    guard(childProcess as unknown as Record<string, unknown>, name, `child_process.${name}`);
  }
  if (typeof globalThis.fetch === 'function') guard(globalThis as unknown as Record<string, unknown>, 'fetch', 'fetch');
  syncBuiltinESMExports();
}
