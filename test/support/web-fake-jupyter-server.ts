/**
 * A scripted Jupyter server for the web notebook's tests: real HTTP + WebSocket on 127.0.0.1:0, the
 * REST subset @jupyterlab/services uses (kernelspecs, kernels, sessions, contents) over an in-memory
 * or on-disk notebooks directory, and a kernel whose replies a test scripts per execute_request.
 * It also serves the built web app, as the real server does. Its kernel WebSocket speaks the
 * `v1.kernel.websocket.jupyter.org` subprotocol when the page offers it (as Jupyter Server 2 and the
 * Nighthawk server do), else JSON text frames.
 */
import { randomUUID } from 'node:crypto';
import { promises as fs } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { WebSocketServer, type WebSocket } from 'ws';
import { serveStatic as serveBuiltFiles } from '../../kernel/src/server/api/static-files.js';
import { decodeFrame, encodeFrame, V1_PROTOCOL } from '../../kernel/src/server/api/ws-frames.js';
import { NIGHTHAWK_KERNEL, SESSION_CREATED_HEADER, type KernelMessage } from '../../shared/index.js';

export interface JupyterFrame {
  channel: string;
  header: { msg_id: string; msg_type: string; session: string; username: string; date: string; version: string };
  parent_header: Record<string, unknown>;
  metadata: Record<string, unknown>;
  content: Record<string, unknown>;
  buffers?: unknown[];
}

/** What a scripted cell can do, in Jupyter message terms. */
export interface ScriptContext {
  readonly code: string;
  readonly executionCount: number;
  /** Aborted when the kernel is interrupted through POST /api/kernels/{id}/interrupt. */
  readonly interrupted: AbortSignal;
  stream(name: 'stdout' | 'stderr', text: string): void;
  display(data: Record<string, unknown>, displayId?: string): void;
  updateDisplay(data: Record<string, unknown>, displayId: string): void;
  result(data: Record<string, unknown>): void;
  /** Sends input_request on stdin (with `metadata`, as the kernel names the approval it asks for) and resolves with the input_reply value. */
  input(prompt: string, metadata?: Record<string, unknown>): Promise<string>;
}

/** Thrown by a script to end the cell with an `error` output and an error execute_reply. */
export class ScriptedKernelError extends Error {
  constructor(readonly ename: string, readonly evalue: string, readonly traceback: string[] = []) {
    super(`${ename}: ${evalue}`);
  }
}

export type KernelScript = (ctx: ScriptContext) => Promise<void> | void;

export interface FakeServerOptions {
  token: string;
  notebooksDir: string;
  staticDir?: string;
  script: KernelScript;
  /**
   * The first GET of /api/sessions and of /api/kernels answers with the lists as they were when it arrived,
   * this many milliseconds late: a slow list crossing the page's own session start, as on a loaded server.
   */
  slowFirstListsMs?: number;
  /**
   * False: the server selects no subprotocol, as a server without the v1 layout does (JSON frames only);
   * @jupyterlab/services then fails its first handshake and reconnects without subprotocols.
   */
  v1Protocol?: boolean;
  /**
   * The one kernelspec the server has (default `nighthawk`); a session POST naming another is refused with 501,
   * as jupyter_server refuses a kernel it does not have.
   */
  kernelName?: string;
}

export interface FakeJupyterServer {
  readonly url: string;
  readonly port: number;
  /** Every frame the browser sent on the kernel channels (for asserting input replies). */
  readonly received: JupyterFrame[];
  interruptCount(): number;
  close(): Promise<void>;
}

interface KernelState {
  id: string;
  executionCount: number;
  sockets: Set<WebSocket>;
  abort: AbortController | undefined;
  inputs: Map<string, (value: string) => void>;
  queue: Promise<void>;
  /** Bumped by an error under stop_on_error; executions queued before it are aborted. */
  abortGeneration: number;
}

export async function startFakeJupyterServer(options: FakeServerOptions): Promise<FakeJupyterServer> {
  const kernels = new Map<string, KernelState>();
  const sessions = new Map<string, { id: string; path: string; name: string; type: string; kernelId: string }>();
  const received: JupyterFrame[] = [];
  let interrupts = 0;

  const kernelModel = (k: KernelState) => ({ id: k.id, name: options.kernelName ?? NIGHTHAWK_KERNEL, last_activity: new Date().toISOString(), execution_state: 'idle', connections: k.sockets.size });
  const sessionModel = (s: { id: string; path: string; name: string; type: string; kernelId: string }) =>
    ({ id: s.id, path: s.path, name: s.name, type: s.type, kernel: kernelModel(kernels.get(s.kernelId)!) });
  const newKernel = (): KernelState => {
    const k: KernelState = { id: randomUUID(), executionCount: 0, sockets: new Set(), abort: undefined, inputs: new Map(), queue: Promise.resolve(), abortGeneration: 0 };
    kernels.set(k.id, k);
    return k;
  };

  const slowed = new Set<string>();
  /** Answers a list request, late (with the lists of its arrival) if it is the first of its kind and lists are slowed. */
  const answerList = (res: http.ServerResponse, area: string, body: unknown): void => {
    const delay = options.slowFirstListsMs;
    if (!delay || slowed.has(area)) return send(res, 200, body);
    slowed.add(area);
    setTimeout(() => send(res, 200, body), delay);
  };

  const authorised = (req: http.IncomingMessage, url: URL): boolean =>
    req.headers.authorization === `token ${options.token}` || url.searchParams.get('token') === options.token;

  const server = http.createServer((req, res) => {
    void handle(req, res).catch((err: unknown) => {
      res.writeHead(500, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ message: String(err) }));
    });
  });

  async function readBody(req: http.IncomingMessage): Promise<Record<string, unknown>> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const text = Buffer.concat(chunks).toString('utf8');
    return text ? (JSON.parse(text) as Record<string, unknown>) : {};
  }

  function send(res: http.ServerResponse, status: number, body?: unknown, headers: Record<string, string> = {}): void {
    res.writeHead(status, { ...headers, 'content-type': 'application/json' });
    res.end(body === undefined ? '' : JSON.stringify(body));
  }

  async function contentsModel(rel: string, withContent: boolean): Promise<Record<string, unknown> | undefined> {
    const abs = path.join(options.notebooksDir, rel);
    const stat = await fs.stat(abs).catch(() => undefined);
    if (!stat) return undefined;
    const base = { name: path.basename(rel), path: rel, last_modified: stat.mtime.toISOString(), created: stat.birthtime.toISOString(), writable: true, mimetype: null };
    if (stat.isDirectory()) {
      const names = withContent ? await fs.readdir(abs) : [];
      const content = withContent ? await Promise.all(names.map((n) => contentsModel(rel ? `${rel}/${n}` : n, false))) : null;
      return { ...base, type: 'directory', format: withContent ? 'json' : null, content };
    }
    const type = rel.endsWith('.ipynb') ? 'notebook' : 'file';
    const text = withContent ? await fs.readFile(abs, 'utf8') : null;
    return { ...base, type, size: stat.size, format: withContent ? (type === 'notebook' ? 'json' : 'text') : null, content: text === null ? null : type === 'notebook' ? JSON.parse(text) : text };
  }

  async function handleContents(req: http.IncomingMessage, res: http.ServerResponse, rel: string, url: URL): Promise<void> {
    const abs = path.join(options.notebooksDir, rel);
    if (req.method === 'GET') {
      const model = await contentsModel(rel, url.searchParams.get('content') !== '0');
      return model ? send(res, 200, model) : send(res, 404, { message: `No such file: ${rel}` });
    }
    if (req.method === 'PUT') {
      const body = await readBody(req);
      if (body.type === 'directory') {
        await fs.mkdir(abs, { recursive: true });
        return send(res, 201, await contentsModel(rel, false));
      }
      const text = body.type === 'notebook' ? `${JSON.stringify(body.content, null, 1)}\n` : String(body.content ?? '');
      await fs.writeFile(abs, text);
      return send(res, 200, await contentsModel(rel, false));
    }
    if (req.method === 'PATCH') {
      const body = await readBody(req);
      const target = String(body.path);
      await fs.rename(abs, path.join(options.notebooksDir, target));
      return send(res, 200, await contentsModel(target, false));
    }
    if (req.method === 'DELETE') {
      // As the real server: folders only when empty.
      const stat = await fs.stat(abs).catch(() => undefined);
      if (!stat) return send(res, 404, { message: `No such file: ${rel}` });
      if (stat.isDirectory()) return fs.rmdir(abs).then(() => send(res, 204), () => send(res, 409, { message: `${rel} is not empty` }));
      await fs.rm(abs);
      return send(res, 204);
    }
    send(res, 405);
  }

  async function handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const p = decodeURIComponent(url.pathname);
    if (!p.startsWith('/api/')) return serveStatic(req, res, url.pathname);
    if (!authorised(req, url)) return send(res, 403, { message: 'bad token' });
    const parts = p.split('/').filter(Boolean); // ['api', ...]
    const [, area, id, action] = parts;
    if (area === 'kernelspecs') {
      const name = options.kernelName ?? NIGHTHAWK_KERNEL;
      return send(res, 200, { default: name, kernelspecs: { [name]: { name, spec: { display_name: name === NIGHTHAWK_KERNEL ? 'Nighthawk TypeScript' : name, language: 'typescript', argv: [], metadata: {}, env: {} }, resources: {} } } });
    }
    if (area === 'contents') return handleContents(req, res, parts.slice(2).join('/'), url);
    if (area === 'kernels') {
      if (!id) {
        if (req.method === 'POST') return send(res, 201, kernelModel(newKernel()));
        return answerList(res, area, [...kernels.values()].map(kernelModel));
      }
      const kernel = kernels.get(id);
      if (!kernel) return send(res, 404, { message: 'no kernel' });
      if (action === 'interrupt') {
        interrupts++;
        kernel.abort?.abort();
        return send(res, 204);
      }
      if (action === 'restart') {
        kernel.abort?.abort();
        kernel.executionCount = 0;
        return send(res, 200, kernelModel(kernel));
      }
      if (req.method === 'DELETE') {
        // As a real server: the kernel's WebSockets close with it.
        kernels.delete(id);
        for (const ws of kernel.sockets) ws.close();
        return send(res, 204);
      }
      return send(res, 200, kernelModel(kernel));
    }
    if (area === 'sessions') {
      if (!id) {
        if (req.method === 'POST') {
          const body = await readBody(req);
          const asked = (body.kernel as { name?: unknown } | undefined)?.name;
          if (typeof asked === 'string' && asked !== (options.kernelName ?? NIGHTHAWK_KERNEL)) return send(res, 501, { message: `The '${asked}' kernel is not available.` });
          // As jupyter_server: a POST for a path that has a session answers with that session.
          const found = [...sessions.values()].find((s) => s.path === String(body.path));
          // The Nighthawk server also says which (shared/rest.ts).
          if (found) return send(res, 201, sessionModel(found), { [SESSION_CREATED_HEADER]: 'found' });
          const kernel = newKernel();
          const s = { id: randomUUID(), path: String(body.path), name: String(body.name ?? ''), type: String(body.type ?? 'notebook'), kernelId: kernel.id };
          sessions.set(s.id, s);
          return send(res, 201, sessionModel(s), { [SESSION_CREATED_HEADER]: 'created' });
        }
        return answerList(res, area, [...sessions.values()].map(sessionModel));
      }
      const s = sessions.get(id);
      if (!s) return send(res, 404, { message: 'no session' });
      if (req.method === 'PATCH') {
        const body = await readBody(req);
        if (typeof body.path === 'string') s.path = body.path;
        if (typeof body.name === 'string') s.name = body.name;
      }
      if (req.method === 'DELETE') {
        sessions.delete(id);
        return send(res, 204);
      }
      return send(res, 200, sessionModel(s));
    }
    send(res, 404, { message: `not found: ${p}` });
  }

  /** The product's own static files (caching included), so load-time benchmarks measure what users get. */
  async function serveStatic(req: http.IncomingMessage, res: http.ServerResponse, pathname: string): Promise<void> {
    if (!options.staticDir) return send(res, 404);
    await serveBuiltFiles(options.staticDir, pathname, res, req.headers);
  }

  const wss = new WebSocketServer({
    noServer: true,
    handleProtocols: (protocols) => (options.v1Protocol !== false && protocols.has(V1_PROTOCOL) ? V1_PROTOCOL : false),
  });
  /** Sends one frame to every socket of the kernel, each in the framing it negotiated. */
  const broadcast = (kernel: KernelState, frame: JupyterFrame): void => {
    for (const ws of kernel.sockets) ws.send(encodeFrame(frame as unknown as KernelMessage<object>, ws.protocol));
  };
  server.on('upgrade', (req, socket, head) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const match = /^\/api\/kernels\/([^/]+)\/channels$/.exec(url.pathname);
    const kernel = match ? kernels.get(match[1]!) : undefined;
    if (!kernel || !authorised(req, url)) {
      socket.destroy();
      return;
    }
    wss.handleUpgrade(req, socket, head, (ws) => {
      kernel.sockets.add(ws);
      ws.on('close', () => kernel.sockets.delete(ws));
      // As the product's server does (kernel-manager.ts connect): the kernel's state, at once, with no parent.
      ws.send(encodeFrame({ channel: 'iopub', header: { msg_id: randomUUID(), msg_type: 'status', session: 'fake-kernel', username: 'kernel', date: new Date().toISOString(), version: '5.3' }, parent_header: {}, metadata: {}, content: { execution_state: 'idle' }, buffers: [] } as unknown as KernelMessage<object>, ws.protocol));
      ws.on('message', (raw, isBinary) => {
        const data = Array.isArray(raw) ? Buffer.concat(raw) : Buffer.isBuffer(raw) ? raw : Buffer.from(raw);
        const frame = decodeFrame(data, isBinary, ws.protocol) as JupyterFrame;
        received.push(frame);
        onFrame(kernel, frame);
      });
    });
  });

  function publish(kernel: KernelState, channel: string, msgType: string, parent: JupyterFrame, content: Record<string, unknown>): void {
    const frame: JupyterFrame = {
      channel,
      header: { msg_id: randomUUID(), msg_type: msgType, session: 'fake-kernel', username: 'kernel', date: new Date().toISOString(), version: '5.3' },
      parent_header: parent.header,
      metadata: {},
      content,
      buffers: [],
    };
    broadcast(kernel, frame);
  }

  function onFrame(kernel: KernelState, frame: JupyterFrame): void {
    const type = frame.header.msg_type;
    if (type === 'input_reply') {
      const resolve = kernel.inputs.get(String(frame.parent_header.msg_id ?? ''));
      kernel.inputs.delete(String(frame.parent_header.msg_id ?? ''));
      resolve?.(String(frame.content.value ?? ''));
      return;
    }
    const reply = (content: Record<string, unknown>): void => publish(kernel, frame.channel, type.replace(/_request$/, '_reply'), frame, content);
    const busy = (state: string): void => publish(kernel, 'iopub', 'status', frame, { execution_state: state });
    if (type === 'kernel_info_request') {
      busy('busy');
      reply({ status: 'ok', protocol_version: '5.3', implementation: 'fake', implementation_version: '0', banner: 'fake kernel', help_links: [],
        language_info: { name: 'typescript', version: '5', mimetype: 'text/typescript', file_extension: '.ts' } });
      busy('idle');
    } else if (type === 'complete_request' || type === 'inspect_request') {
      // Real kernels bracket every request with busy/idle; @jupyterlab/services waits for the idle.
      busy('busy');
      answerIntrospection(frame, reply);
      busy('idle');
    } else if (type === 'execute_request') {
      const generation = kernel.abortGeneration;
      kernel.queue = kernel.queue.then(() => execute(kernel, frame, reply, busy, generation));
    } else if (frame.channel === 'shell' || frame.channel === 'control') {
      reply({ status: 'ok' });
    }
  }

  function answerIntrospection(frame: JupyterFrame, reply: (c: Record<string, unknown>) => void): void {
    const type = frame.header.msg_type;
    if (type === 'complete_request') {
      const code = String(frame.content.code ?? '');
      const pos = Number(frame.content.cursor_pos ?? code.length);
      const start = pos - (/[\w$]*$/.exec(code.slice(0, pos))?.[0].length ?? 0);
      reply({ status: 'ok', matches: ['ledger', 'length', 'log'].filter((m) => m.startsWith(code.slice(start, pos))), cursor_start: start, cursor_end: pos, metadata: {} });
    } else {
      reply({ status: 'ok', found: true, data: { 'text/plain': 'const ledger: Ledger' }, metadata: {} });
    }
  }

  async function execute(kernel: KernelState, frame: JupyterFrame, reply: (c: Record<string, unknown>) => void, busy: (s: string) => void, generation: number): Promise<void> {
    // Like ipykernel with stop_on_error: requests queued before an error are answered 'aborted', unrun.
    if (generation < kernel.abortGeneration) {
      busy('busy');
      reply({ status: 'aborted', execution_count: kernel.executionCount });
      busy('idle');
      return;
    }
    const abort = new AbortController();
    kernel.abort = abort;
    const count = ++kernel.executionCount;
    const code = String(frame.content.code ?? '');
    busy('busy');
    publish(kernel, 'iopub', 'execute_input', frame, { code, execution_count: count });
    const emit = (msgType: string, content: Record<string, unknown>): void => publish(kernel, 'iopub', msgType, frame, content);
    const ctx: ScriptContext = {
      code,
      executionCount: count,
      interrupted: abort.signal,
      stream: (name, text) => emit('stream', { name, text }),
      display: (data, displayId) => emit('display_data', { data, metadata: {}, transient: displayId ? { display_id: displayId } : {} }),
      updateDisplay: (data, displayId) => emit('update_display_data', { data, metadata: {}, transient: { display_id: displayId } }),
      result: (data) => emit('execute_result', { data, metadata: {}, execution_count: count }),
      input: (prompt, metadata = {}) => new Promise((resolve) => {
        const id = randomUUID();
        kernel.inputs.set(id, resolve);
        const header = { msg_id: id, msg_type: 'input_request', session: 'fake-kernel', username: 'kernel', date: new Date().toISOString(), version: '5.3' };
        broadcast(kernel, { channel: 'stdin', header, parent_header: frame.header, metadata, content: { prompt, password: false }, buffers: [] });
      }),
    };
    let failure: ScriptedKernelError | undefined;
    try {
      await options.script(ctx);
      if (abort.signal.aborted) failure = new ScriptedKernelError('KeyboardInterrupt', 'interrupted');
    } catch (err) {
      failure = err instanceof ScriptedKernelError ? err : abort.signal.aborted ? new ScriptedKernelError('KeyboardInterrupt', 'interrupted') : new ScriptedKernelError('Error', String(err));
    }
    kernel.abort = undefined;
    if (failure) {
      if (frame.content.stop_on_error !== false) kernel.abortGeneration++;
      emit('error', { ename: failure.ename, evalue: failure.evalue, traceback: failure.traceback });
      reply({ status: 'error', execution_count: count, ename: failure.ename, evalue: failure.evalue, traceback: failure.traceback });
    } else reply({ status: 'ok', execution_count: count, user_expressions: {}, payload: [] });
    busy('idle');
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    received,
    interruptCount: () => interrupts,
    close: async () => {
      for (const k of kernels.values()) for (const ws of k.sockets) ws.terminate();
      wss.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
