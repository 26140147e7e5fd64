/**
 * The Nighthawk kernel server: one HTTP port for the Jupyter REST API, the kernel WebSockets and the web
 * notebook's static files. Every /api request and WebSocket needs the token; Host and Origin are checked.
 */
import { mkdirSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { WebSocketServer } from 'ws';
import { attachChannel, type ChannelStats } from './channels.js';
import { ContentsStore } from './contents.js';
import { rateLimitedLog } from '../kernel/index.js';
import { publicError } from './public-errors.js';
import { handleApi } from './http-api.js';
import { KernelManager } from '../kernel/index.js';
import { generateToken, hostAndOriginChecker, tokenMatches, type OriginPolicy } from './security.js';
import { SessionRegistry } from './sessions.js';
import { CONTENT_SECURITY_POLICY } from './content-security.js';
import { serveStatic } from './static-files.js';
import { V1_PROTOCOL } from './ws-frames.js';

export { CONTENT_SECURITY_POLICY } from './content-security.js';

/** A larger notebook's first cell is not converted ahead: reading it would cost the server more than it saves. */
const PREPARE_MAX_NOTEBOOK_BYTES = 1024 * 1024;

const SECURITY_HEADERS: Record<string, string> = {
  'Content-Security-Policy': CONTENT_SECURITY_POLICY,
  'X-Frame-Options': 'DENY',
  'Referrer-Policy': 'no-referrer',
  // No answer (an error echoing a header, a notebook's JSON) is ever sniffed into something a browser runs.
  'X-Content-Type-Options': 'nosniff',
};

export interface ServerOptions {
  notebookDir: string;
  host?: string;
  /** 0 picks a free port. */
  port?: number;
  token?: string;
  /** Built web notebook to serve at `/`; a placeholder page when absent. */
  staticDir?: string;
  /** Persistent state (ledgers) for the hosted Session; created when missing. */
  dataDir?: string;
  /** Working directory of kernel processes (where `nighthawk-ts` resolves); defaults to process.cwd(). */
  kernelCwd?: string;
  /** Module loaded in each kernel process that provides the KernelHost (see kernel-process.ts). */
  hostModule?: string;
  spareKernels?: number;
  /** Extra browser origins allowed (e.g. the Vite dev server). */
  allowOrigins?: string[];
  /** Extra Host names accepted besides loopback names and the bound address (exact match). */
  allowHosts?: string[];
  maxBodyBytes?: number;
  maxMessageBytes?: number;
  log?: (line: string) => void;
}

export interface NighthawkServer {
  /** `http://host:port/?token=…`, the URL to open. */
  url: string;
  baseUrl: string;
  wsUrl: string;
  host: string;
  port: number;
  token: string;
  notebookDir: string;
  dataDir: string | undefined;
  stats: ChannelStats;
  kernels: KernelManager;
  close(): Promise<void>;
}

export async function startServer(options: ServerOptions): Promise<NighthawkServer> {
  const host = options.host ?? '127.0.0.1';
  const token = options.token ?? generateToken();
  // One hostile client must not flood the operator's terminal: similar lines are counted past a burst.
  const log = rateLimitedLog(options.log ?? ((line: string) => process.stderr.write(line + '\n')));
  const notebookDir = path.resolve(options.notebookDir);
  mkdirSync(notebookDir, { recursive: true });
  const dataDir = options.dataDir === undefined ? undefined : path.resolve(options.dataDir);
  if (dataDir) mkdirSync(dataDir, { recursive: true });
  const maxBodyBytes = options.maxBodyBytes ?? 32 * 1024 * 1024;
  const maxMessageBytes = options.maxMessageBytes ?? 16 * 1024 * 1024;
  const stats: ChannelStats = { framesReceived: 0, framesRefused: 0, framesDropped: 0 };
  const kernels = new KernelManager({
    cwd: options.kernelCwd ?? process.cwd(),
    hostModule: options.hostModule,
    dataDir,
    spareKernels: options.spareKernels,
  });
  const contents = new ContentsStore(notebookDir);
  const sessions = new SessionRegistry(kernels, (notebook) => contents.firstCodeCell(notebook, PREPARE_MAX_NOTEBOOK_BYTES));
  const stale = await contents.removeStaleTemporaryFiles();
  if (stale > 0) log(`removed ${stale} temporary file(s) left by interrupted saves in ${notebookDir}`);
  const api = { kernels, sessions, contents, maxBodyBytes };
  const serverSession = randomUUID();

  let port = options.port ?? 8888;
  const policy: OriginPolicy = { bindHost: host, port: () => port, allowOrigins: options.allowOrigins ?? [], allowHosts: options.allowHosts ?? [] };
  const checkHostAndOrigin = hostAndOriginChecker(policy);

  const fail = (res: ServerResponse, status: number, message: string): void => {
    if (res.headersSent) {
      res.end();
      return;
    }
    res.writeHead(status, { 'Content-Type': 'application/json', ...(status === 413 ? { Connection: 'close' } : {}) });
    res.end(JSON.stringify({ message, reason: null }));
  };

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    for (const [name, value] of Object.entries(SECURITY_HEADERS)) res.setHeader(name, value);
    let url: URL;
    try {
      url = new URL(req.url ?? '/', 'http://placeholder');
    } catch {
      return fail(res, 400, 'Malformed request target');
    }
    const refusal = checkHostAndOrigin(req);
    if (refusal) return fail(res, 403, refusal);
    const origin = req.headers.origin;
    if (origin && policy.allowOrigins.includes(origin)) {
      res.setHeader('Access-Control-Allow-Origin', origin);
      res.setHeader('Access-Control-Allow-Headers', 'Authorization, Content-Type, X-XSRFToken');
      res.setHeader('Access-Control-Allow-Methods', 'GET, POST, PUT, PATCH, DELETE, OPTIONS');
      res.setHeader('Vary', 'Origin');
    }
    if (req.method === 'OPTIONS') {
      res.writeHead(204).end();
      return;
    }
    if (url.pathname === '/api' || url.pathname.startsWith('/api/')) {
      if (!tokenMatches(token, req, url.searchParams)) return fail(res, 403, 'Missing or invalid token');
      try {
        await handleApi(api, req, res, url.pathname, url.searchParams);
      } catch (error) {
        const answer = publicError(error, [notebookDir, dataDir, process.cwd()]);
        if (answer.status >= 500) log(`api error ${req.method} ${url.pathname} [${answer.reference}]: ${(error as Error).stack ?? String(error)}`);
        return fail(res, answer.status, answer.message);
      }
      return;
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') return fail(res, 405, 'Method not allowed');
    await serveStatic(options.staticDir, url.pathname, res, req.headers);
  };

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      log(`request failed: ${String(error)}`);
      fail(res, 500, 'Internal error');
    });
    // A refused body must not keep the socket reading a huge upload.
    res.on('finish', () => {
      if (res.statusCode === 413) req.destroy();
    });
  });

  const wss = new WebSocketServer({
    noServer: true,
    maxPayload: maxMessageBytes * 4,
    handleProtocols: (protocols) => (protocols.has(V1_PROTOCOL) ? V1_PROTOCOL : false),
  });
  server.on('upgrade', (req, socket, head) => {
    // Node hands the socket over without its error listener, and this listener runs synchronously: a socket
    // error (a client resetting while its refusal is written) or a throw here would be uncaught and end the server.
    const onSocketError = (): void => {
      socket.destroy();
    };
    socket.on('error', onSocketError);
    const reject = (status: number, message: string): void => {
      socket.end(`HTTP/1.1 ${status} ${message}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
      // A refused client gets no more time than the write takes; a half-open socket would otherwise linger.
      socket.once('finish', () => socket.destroy());
    };
    let url: URL;
    try {
      url = new URL(req.url ?? '/', 'http://placeholder');
    } catch {
      return reject(400, 'Bad Request');
    }
    const refusal = checkHostAndOrigin(req);
    if (refusal) return reject(403, 'Forbidden');
    if (!tokenMatches(token, req, url.searchParams)) return reject(403, 'Forbidden');
    const match = /^\/api\/kernels\/([^/]+)\/channels$/.exec(url.pathname);
    let kernelId: string | undefined;
    try {
      kernelId = match ? decodeURIComponent(match[1]!) : undefined;
    } catch {
      kernelId = undefined; // malformed percent-encoding names no kernel
    }
    const kernel = kernelId === undefined ? undefined : kernels.get(kernelId);
    if (!kernel) return reject(404, 'Not Found');
    // ws attaches its own error handling to the socket it takes over.
    socket.off('error', onSocketError);
    wss.handleUpgrade(req, socket, head, (ws) => {
      attachChannel(ws, kernel, ws.protocol, { maxMessageBytes, stats, log, serverSession });
    });
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address();
  if (address && typeof address === 'object') port = address.port;
  const displayHost = host.includes(':') ? `[${host}]` : host;
  const baseUrl = `http://${displayHost}:${port}/`;

  return {
    url: `${baseUrl}?token=${token}`,
    baseUrl,
    wsUrl: `ws://${displayHost}:${port}/`,
    host,
    port,
    token,
    notebookDir,
    dataDir,
    stats,
    kernels,
    async close() {
      for (const client of wss.clients) client.terminate();
      wss.close();
      await kernels.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      log.flush();
    },
  };
}
