/**
 * Detective in-process audit of direct perimeter effects. While a run host is active and no gateway
 * allowance is live, file mutations, sockets, datagrams, HTTP(S/2) requests, fetch, listening servers,
 * child processes (also through the native bindings), worker threads, process exit hooks and ending the
 * process (`process.exit`, `reallyExit`, `abort`, `kill`) started by interior code are refused and recorded
 * as `unmediated_perimeter_effect` trace anomalies.
 * `docs/effect-audit.md` lists every audited entry point and the accepted limitations.
 *
 * This is detective, not confinement: it patches the Node APIs that a host context can observe.
 * Native addons, code that captured the original functions before installation, and work outside the
 * propagated async context are not seen. Deployments that need a boundary must configure real
 * external confinement.
 */
import childProcess from 'node:child_process';
import dgram from 'node:dgram';
import dns from 'node:dns';
import fs from 'node:fs';
import http from 'node:http';
import http2 from 'node:http2';
import https from 'node:https';
import { syncBuiltinESMExports } from 'node:module';
import net from 'node:net';
import os from 'node:os';
import tls from 'node:tls';
import workerThreads from 'node:worker_threads';
import { allowedPlaces, interiorWithoutAllowance, networkOnlyAllowance } from './host-context.js';
import { admits, describePlace, destinationOf } from './network-destination.js';
import { wrapClass, wrapMethod } from './checked-exports.js';
import { reflectApply, regExpTest, setHas, stringIndexOf, stringSlice, stringStartsWith, StringCtor } from './intrinsics.js';
import { installRawDynamicRuntime, refuseRawDynamic } from './raw-dynamic-runtime.js';
import { installLateCallbacks } from './late-callbacks.js';
import { installRealmIntegrity } from './realm-integrity.js';
import { installSecretWatch } from './secret-watch.js';
import { installSilentRefusals } from './silent-refusals.js';
import { UnmediatedPerimeterEffectError } from './run-errors.js';

let installed = false;

/** The effects a model request needs: connections, HTTP, fetch and name lookups (labels as guarded below). */
const NETWORK_EFFECT = /^(?:fetch$|net\.|tls\.|https?\.|http2\.|dns\.)/;

function refuseIfInterior(effect: string, args?: readonly unknown[]): void {
  let frame = interiorWithoutAllowance();
  // While a model request is sent only the network is admitted, and only to the origins its client declared: a
  // built-in a model replaced with a bound host function (a file write, a fetch to a host it chose) that the provider
  // client then calls runs inside that allowance.
  let during: 'model-request' | undefined;
  let destination: string | undefined;
  if (!frame) {
    frame = networkOnlyAllowance();
    if (frame && regExpTest(NETWORK_EFFECT, effect)) {
      const places = allowedPlaces(frame);
      const place = places === undefined ? undefined : destinationOf(effect, args ?? []);
      if (places === undefined || (place !== undefined && admits(places, place))) return;
      destination = describePlace(place);
    }
    if (!frame) return;
    during = 'model-request';
  }
  // Built only for a refusal: this runs on every audited call.
  const detail = during === undefined ? { effect } : destination === undefined ? { effect, during } : { effect, during, destination };
  try {
    frame.host.recordAnomaly('unmediated_perimeter_effect', detail, frame.submitterId);
  } catch {
    /* the refusal below is the outcome even when recording fails */
  }
  throw new UnmediatedPerimeterEffectError(detail);
}

type AnyFn = (...args: unknown[]) => unknown;
type Target = Record<string, unknown>;

function guard(target: Target, name: string, label: string, when?: (args: unknown[]) => boolean): void {
  wrapMethod(target, name, (args) => {
    if (!when || when(args)) refuseIfInterior(label, args);
  });
}

const WRITE_FLAGS = /[wa+]/;
const WRITE_MODE = fs.constants.O_WRONLY | fs.constants.O_RDWR | fs.constants.O_CREAT | fs.constants.O_TRUNC | fs.constants.O_APPEND;
const flagsWrite = (flags: unknown): boolean =>
  typeof flags === 'string' ? regExpTest(WRITE_FLAGS, flags) : typeof flags === 'number' ? (flags & WRITE_MODE) !== 0 : false;
const opensForWrite = (args: unknown[]) => flagsWrite(args[1]);
/** Writes to the process's own standard streams are output, not perimeter effects. */
const notStdio = (args: unknown[]) => typeof args[0] !== 'number' || args[0] > 2;
const streamOptionsWrite = (args: unknown[]) => {
  const options = args[1];
  return typeof options === 'object' && options !== null && flagsWrite((options as { flags?: unknown }).flags);
};

/** Every mutating fs entry point, by base name; each is audited as callback, `…Sync` and promise form. */
export const FS_MUTATIONS: readonly string[] = [
  'writeFile', 'appendFile', 'mkdir', 'mkdtemp', 'rm', 'rmdir', 'unlink', 'rename', 'link', 'symlink', 'copyFile', 'cp',
  'truncate', 'ftruncate', 'chmod', 'fchmod', 'lchmod', 'chown', 'fchown', 'lchown', 'utimes', 'futimes', 'lutimes',
];
const FD_WRITES = ['write', 'writev'];
const FILE_HANDLE_WRITES = ['write', 'writev', 'writeFile', 'appendFile', 'truncate', 'chmod', 'chown', 'utimes', 'createWriteStream'];
/** Native bindings that reach processes, sockets or the file system directly. */
const EFFECT_BINDINGS = new Set(['spawn_sync', 'process_wrap', 'tcp_wrap', 'udp_wrap', 'pipe_wrap', 'stream_wrap', 'tty_wrap', 'fs', 'fs_dir', 'fs_event_wrap', 'cares_wrap', 'js_stream', 'worker']);
const EXIT_EVENTS = new Set(['exit', 'beforeExit']);
const SIGNAL_EVENTS = new Set(Object.keys(os.constants.signals));
const ERROR_EVENTS = new Set(['uncaughtException', 'uncaughtExceptionMonitor', 'unhandledRejection']);
const IPC_EVENTS = new Set(['message', 'disconnect', 'internalMessage']);
// Node arms a signal listener from its own 'newListener' listener: without it, a signal listener the host adds
// later never hears its signal. A model's listener there would also be handed every listener the host adds.
const LISTENER_EVENTS = new Set(['newListener', 'removeListener']);

/** Which of the process's lifecycle events `event` names, if any. */
function processEvent(event: unknown): 'exit' | 'signal' | 'error' | 'ipc' | 'listener' | undefined {
  if (typeof event !== 'string') return undefined;
  if (setHas(EXIT_EVENTS, event)) return 'exit';
  if (setHas(SIGNAL_EVENTS, event)) return 'signal';
  if (setHas(ERROR_EVENTS, event)) return 'error';
  if (setHas(IPC_EVENTS, event)) return 'ipc';
  return setHas(LISTENER_EVENTS, event) ? 'listener' : undefined;
}

/** Every `process` method the audit wraps: the realm check watches each, so a stand-in put there is undone. */
const guardedProcessMethods: string[] = [];

function guardProcess(name: string, check: (args: unknown[]) => void): void {
  wrapMethod(process as unknown as Target, name, check);
  guardedProcessMethods.push(name);
}

let fileHandlePatched = false;
function patchFileHandle(handle: unknown): void {
  if (fileHandlePatched || typeof handle !== 'object' || handle === null) return;
  fileHandlePatched = true;
  const proto = Object.getPrototypeOf(handle) as Target;
  for (const name of FILE_HANDLE_WRITES) guard(proto, name, `FileHandle.${name}`);
}

function installFs(): void {
  const fsm = fs as unknown as Target;
  for (const base of FS_MUTATIONS) {
    guard(fsm, base, `fs.${base}`);
    guard(fsm, `${base}Sync`, `fs.${base}Sync`);
  }
  for (const base of FD_WRITES) {
    guard(fsm, base, `fs.${base}`, notStdio);
    guard(fsm, `${base}Sync`, `fs.${base}Sync`, notStdio);
  }
  guard(fsm, 'open', 'fs.open(write)', opensForWrite);
  guard(fsm, 'openSync', 'fs.openSync(write)', opensForWrite);
  guard(fsm, 'createWriteStream', 'fs.createWriteStream');
  guard(fsm, 'createReadStream', 'fs.createReadStream(write)', streamOptionsWrite);
  wrapClass(fsm, 'WriteStream', () => refuseIfInterior('fs.WriteStream'));
  const promises = fs.promises as unknown as Target;
  for (const base of FS_MUTATIONS) guard(promises, base, `fs.promises.${base}`);
  guard(promises, 'open', 'fs.promises.open(write)', opensForWrite);
  // FileHandle is not exported; its prototype is patched from the first handle the host sees.
  const open = promises['open'] as AnyFn;
  promises['open'] = async function open_(this: unknown, ...args: unknown[]): Promise<unknown> {
    const handle = await reflectApply(open, this, args);
    patchFileHandle(handle);
    return handle;
  };
  Object.defineProperty(promises['open'], 'name', { value: 'open' });
}

function installNetwork(): void {
  guard(net.Socket.prototype as unknown as Target, 'connect', 'net.Socket.connect');
  guard(net.Server.prototype as unknown as Target, 'listen', 'net.Server.listen');
  guard(tls as unknown as Target, 'connect', 'tls.connect');
  const udp = dgram.Socket.prototype as unknown as Target;
  for (const name of ['send', 'bind', 'connect']) guard(udp, name, `dgram.Socket.${name}`);
  for (const [mod, label] of [[http, 'http'], [https, 'https']] as const) {
    guard(mod as unknown as Target, 'request', `${label}.request`);
    guard(mod as unknown as Target, 'get', `${label}.get`);
  }
  wrapClass(http as unknown as Target, 'ClientRequest', (args) => refuseIfInterior('http.ClientRequest', args));
  guard(http2 as unknown as Target, 'connect', 'http2.connect');
  if (typeof globalThis.fetch === 'function') guard(globalThis as unknown as Target, 'fetch', 'fetch');
  // A DNS query is egress (a name can carry data to the resolver it asks); c-ares sends it from native code.
  for (const [mod, label] of [[dns, 'dns'], [dns.promises, 'dns.promises']] as const) {
    for (const name of DNS_QUERIES) {
      guard(mod as unknown as Target, name, `${label}.${name}`);
      guard(mod.Resolver.prototype as unknown as Target, name, `${label}.Resolver.${name}`);
    }
    guard(mod as unknown as Target, 'lookup', `${label}.lookup`);
    guard(mod as unknown as Target, 'lookupService', `${label}.lookupService`);
  }
}

const DNS_QUERIES = ['resolve', 'resolve4', 'resolve6', 'resolveAny', 'resolveCaa', 'resolveCname', 'resolveMx', 'resolveNaptr', 'resolveNs', 'resolvePtr', 'resolveSoa', 'resolveSrv', 'resolveTxt', 'reverse'];

function installProcesses(): void {
  const cp = childProcess as unknown as Target;
  for (const name of ['spawn', 'spawnSync', 'exec', 'execSync', 'execFile', 'execFileSync', 'fork']) guard(cp, name, `child_process.${name}`);
  guard(childProcess.ChildProcess.prototype as unknown as Target, 'spawn', 'child_process.ChildProcess.spawn');
  for (const name of ['binding', '_linkedBinding']) {
    guardProcess(name, (args) => {
      if (setHas(EFFECT_BINDINGS, StringCtor(args[0]))) refuseIfInterior(`process.${name}`);
    });
  }
  const refused = (name: string) => (): void => refuseIfInterior(`process.${name}`);
  // dlopen loads native code; kill signals a process. The IPC channel to a parent process (a web kernel's to the
  // server) is egress and a way to end the child. Ending the host process: a model must not stop the Session it
  // runs in. Then process-wide state every later effect of the host inherits: its working directory (relative
  // paths of stores), its identity, and where its uncaught errors go.
  for (const name of ['dlopen', 'kill', 'send', 'disconnect', 'exit', 'reallyExit', 'abort', 'chdir', 'setuid', 'setgid', 'seteuid', 'setegid', 'setgroups', 'initgroups', 'setUncaughtExceptionCaptureCallback', 'loadEnvFile']) {
    guardProcess(name, refused(name));
  }
  // Its file mode mask (a store created after umask(0) is writable by everyone); umask() alone only reads it.
  guardProcess('umask', (args) => {
    if (args.length > 0 && args[0] !== undefined) refuseIfInterior('process.umask');
  });
  // The process's lifecycle events. A listener on a signal replaces Node's default action: one the model left
  // would make the host ignore SIGTERM or Ctrl-C, during its run and after it. One on an uncaught error keeps a
  // failed host running; one on an IPC event reads what the server sends a kernel. Removing the host's own
  // (`removeAllListeners()` needs no reference) undoes its handling: the kernel's interrupt, its error reports,
  // an operator's exit hook.
  for (const name of ['on', 'once', 'addListener', 'prependListener', 'prependOnceListener', 'removeListener', 'off', 'removeAllListeners']) {
    guardProcess(name, (args) => {
      const kind = args[0] === undefined && name === 'removeAllListeners' ? '' : processEvent(args[0]);
      if (kind !== undefined) refuseIfInterior(`process.${name}(${kind})`);
    });
  }
  // Emitted by hand, they run the host's own handlers as if the event had happened: the kernel's interrupt on a
  // forged SIGINT, its exit on a forged 'disconnect', its message handler on a forged 'message'. Uncaught errors
  // are left alone: Node emits those itself, in the failing code's own context; so are 'newListener' and
  // 'removeListener', which every listener added or removed (for any event, allowed or not) emits.
  guardProcess('emit', (args) => {
    const kind = processEvent(args[0]);
    if (kind !== undefined && kind !== 'error' && kind !== 'listener') refuseIfInterior(`process.emit(${kind})`);
  });
  wrapClass(workerThreads as unknown as Target, 'Worker', (args) => {
    const [specifier, options] = args;
    const evaluates = typeof options === 'object' && options !== null && Boolean((options as { eval?: unknown }).eval);
    const href = specifier instanceof URL ? StringCtor(specifier) : typeof specifier === 'string' && regExpTest(/^[a-z][a-z0-9+.-]*:/i, specifier) ? specifier : undefined;
    const nonFile = href !== undefined && !stringStartsWith(href, 'file:') && !regExpTest(/^[a-z]:[\\/]/i, href);
    if (evaluates) refuseRawDynamic('Worker(eval)');
    if (nonFile) refuseRawDynamic('Worker(url)', { protocol: stringSlice(href, 0, stringIndexOf(href, ':') + 1) });
    refuseIfInterior('worker_threads.Worker');
  });
}

/** Installs the process-wide audit patches and the run-time raw-dynamic tier once. Idempotent; no effect outside host contexts. */
export function installEffectAudit(): void {
  if (installed) return;
  installed = true;
  // First: the process listener wrappers below then delegate to the absorbing emitter methods.
  installLateCallbacks();
  installFs();
  installNetwork();
  installProcesses();
  installRawDynamicRuntime();
  installSecretWatch(refuseIfInterior);
  installSilentRefusals();
  syncBuiltinESMExports();
  // Last, so the record of the built-ins includes the host's own patches.
  installRealmIntegrity(guardedProcessMethods);
}
