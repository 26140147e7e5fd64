/** Starts a real kernel server on 127.0.0.1:0 with a temporary notebooks directory, plus client settings. */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { KernelManager, ServerConnection, SessionManager, ContentsManager, KernelSpecManager } from '@jupyterlab/services';
import WebSocket from 'ws';
import { startServer, type NighthawkServer, type ServerOptions } from '../../kernel/src/server/index.js';

export interface KernelServerFixture {
  server: NighthawkServer;
  /** Parent of the notebooks directory: files here are outside what the server may touch. */
  sandbox: string;
  notebookDir: string;
  settings: ServerConnection.ISettings;
  kernels: KernelManager;
  close(): Promise<void>;
}

export function clientSettings(server: NighthawkServer, token = server.token): ServerConnection.ISettings {
  return ServerConnection.makeSettings({
    baseUrl: server.baseUrl,
    wsUrl: server.wsUrl,
    token,
    appendToken: true,
    WebSocket: WebSocket as unknown as typeof globalThis.WebSocket,
    fetch: globalThis.fetch,
    // The server refuses state-changing requests without a JSON content type (a string body alone is text/plain).
    init: { credentials: 'same-origin', headers: { 'Content-Type': 'application/json' } },
  });
}

export async function startKernelServer(options: Partial<ServerOptions> = {}, start: typeof startServer = startServer): Promise<KernelServerFixture> {
  const sandbox = mkdtempSync(path.join(tmpdir(), 'nighthawk-server-'));
  const notebookDir = path.join(sandbox, 'notebooks');
  const server = await start({ notebookDir, port: 0, spareKernels: 1, log: () => {}, ...options });
  const settings = clientSettings(server);
  const kernels = new KernelManager({ serverSettings: settings });
  return {
    server,
    sandbox,
    notebookDir,
    settings,
    kernels,
    async close() {
      kernels.dispose();
      await server.close();
      rmSync(sandbox, { recursive: true, force: true });
    },
  };
}

/** The repository root: kernels started from it import the built library as `nighthawk-ts`. */
export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
/** The notebook's real kernel host (the Session), from the built library. */
export const sessionHostModule = path.join(repoRoot, 'dist', 'kernel', 'src', 'server', 'display', 'session-host.js');

/** Builds the library when it has not been built yet (a test run straight after a fresh clone). */
export function ensureBuilt(): void {
  if (existsSync(sessionHostModule)) return;
  execFileSync(process.execPath, [path.join(repoRoot, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', 'tsconfig.build.json'], { cwd: repoRoot, stdio: 'ignore' });
}

/** The real notebook configuration: kernels host the Session and cells import the built library. */
export async function startSessionKernelServer(options: Partial<ServerOptions> = {}): Promise<KernelServerFixture> {
  ensureBuilt();
  return startKernelServer({ spareKernels: 0, kernelCwd: repoRoot, hostModule: sessionHostModule, ...options });
}

/**
 * The same, with the server itself loaded from dist/ as `npm start` runs it: its kernel processes then run the
 * built kernel script, whose harness is the one instance cells import as `nighthawk-ts` (from TypeScript
 * sources the kernel script is a bundle with its own copy, so host checks of the kernel's own code, such as
 * "inside a run?", would not see the library's runs).
 */
export async function startBuiltSessionKernelServer(options: Partial<ServerOptions> = {}): Promise<KernelServerFixture> {
  ensureBuilt();
  const built = (await import(pathToFileURL(path.join(repoRoot, 'dist', 'kernel', 'src', 'server', 'index.js')).href)) as { startServer: typeof startServer };
  return startKernelServer({ spareKernels: 0, kernelCwd: repoRoot, hostModule: sessionHostModule, ...options }, built.startServer);
}

export { SessionManager, ContentsManager, KernelSpecManager };
