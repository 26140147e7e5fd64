/**
 * `npm start` entry: serves the Jupyter API and the web notebook on one port and prints the URL with the
 * token. Flags: --port, --host, --token (prefer NIGHTHAWK_TOKEN or --token-file), --notebook-dir, --data-dir,
 * --static-dir, --host-module, --allow-origin (repeatable), --allow-host (repeatable), --spare-kernels, --no-open.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createServer } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chooseToken, prepareWorkspace, startServer } from './api/index.js';
import { CommandLineError, cullIdleKernels, parseCommandLine } from './kernel/index.js';

const USAGE = `Usage: npm start -- [--port 8888] [--host 127.0.0.1] [--token-file F | --token T] [--notebook-dir ./workspace]
                 [--data-dir ./.nighthawk] [--static-dir ./web/dist] [--host-module M]
                 [--allow-origin http://localhost:5173] [--allow-host name] [--spare-kernels 1] [--cull-idle-minutes 60] [--no-open]`;

function openBrowser(url: string): void {
  const command = process.platform === 'darwin' ? 'open' : process.platform === 'win32' ? 'explorer' : 'xdg-open';
  try {
    const child = spawn(command, [url], { stdio: 'ignore', detached: true });
    child.on('error', () => {});
    child.unref();
  } catch {
    // No browser available (headless machine): the printed URL is enough.
  }
}

const PORT_RETRIES = 50;

function portIsFree(port: number, host: string): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = createServer();
    probe.once('error', () => resolve(false));
    probe.listen(port, host, () => probe.close(() => resolve(true)));
  });
}

/**
 * As Jupyter does: a busy port moves on to the next (up to 50), and says so. Checked before the server
 * starts anything (kernels included), so a busy port never leaves half-started children behind.
 */
async function choosePort(wanted: number, host: string, say: (line: string) => void): Promise<number> {
  if (wanted === 0) return 0;
  for (let port = wanted; port <= Math.min(wanted + PORT_RETRIES, 65535); port++) {
    if (await portIsFree(port, host)) {
      if (port !== wanted) say(`Port ${wanted} is in use; using port ${port} instead.`);
      return port;
    }
  }
  throw new Error(`Ports ${wanted}-${wanted + PORT_RETRIES} on ${host} are all in use; pass a free one with --port.`);
}

/** The Session host built next to this file, when present (the kernel then hosts a Session). */
function defaultHostModule(): string | undefined {
  const here = fileURLToPath(import.meta.url);
  const candidate = path.join(path.dirname(here), 'display', here.endsWith('.ts') ? 'session-host.ts' : 'session-host.js');
  return here.endsWith('.js') && existsSync(candidate) ? candidate : undefined;
}

/** The repository's notebooks/ (demos), found from this file: dist/kernel/src/server or kernel/src/server. */
function shippedDemos(): string {
  const here = fileURLToPath(import.meta.url);
  return path.resolve(path.dirname(here), here.endsWith('.js') ? '../../../..' : '../../..', 'notebooks');
}

async function main(): Promise<void> {
  const { values } = parseCommandLine(process.argv.slice(2), {
    port: { type: 'string', default: '8888' },
    host: { type: 'string', default: '127.0.0.1' },
    token: { type: 'string' },
    'token-file': { type: 'string' },
    // Apart from the shipped demos in notebooks/ (copied in on first start): new notebooks go here.
    'notebook-dir': { type: 'string', default: 'workspace' },
    'data-dir': { type: 'string', default: '.nighthawk' },
    'static-dir': { type: 'string', default: path.join('web', 'dist') },
    'host-module': { type: 'string' },
    'allow-origin': { type: 'string', multiple: true, default: [] },
    'allow-host': { type: 'string', multiple: true, default: [] },
    'spare-kernels': { type: 'string', default: '1' },
    'cull-idle-minutes': { type: 'string', default: '60' },
    'no-open': { type: 'boolean', default: false },
    help: { type: 'boolean', short: 'h', default: false },
  });
  if (values.help) {
    console.log(USAGE);
    return;
  }
  // Every value is checked before anything starts, so a typo never leaves a half-started server behind.
  const port = Number(values.port);
  if (!/^\d+$/.test(values.port) || port > 65535) throw new CommandLineError(`--port must be a port number (0-65535), got '${values.port}'`);
  const spareKernels = Number(values['spare-kernels']);
  if (!/^\d+$/.test(values['spare-kernels'])) throw new CommandLineError(`--spare-kernels must be a whole number (0 disables), got '${values['spare-kernels']}'`);
  const cullMinutes = Number(values['cull-idle-minutes']);
  if (!/^\d+(\.\d+)?$/.test(values['cull-idle-minutes'])) throw new CommandLineError(`--cull-idle-minutes must be a number of minutes (0 disables), got '${values['cull-idle-minutes']}'`);
  const { token, warning } = chooseToken({ token: values.token, tokenFile: values['token-file'], env: process.env });
  if (warning) console.error(warning);
  const notebookDir = path.resolve(values['notebook-dir']);
  const { copied } = await prepareWorkspace(notebookDir, shippedDemos());
  if (copied.length) console.log(`Copied ${copied.length} demo notebooks into ${notebookDir} (the originals in notebooks/ stay as shipped).`);
  const chosen = await choosePort(port, values.host, (line) => console.log(line));
  const server = await startServer({
    host: values.host,
    port: chosen,
    token,
    notebookDir,
    dataDir: path.resolve(values['data-dir']),
    staticDir: path.resolve(values['static-dir']),
    hostModule: values['host-module'] ?? defaultHostModule(),
    allowOrigins: values['allow-origin'],
    allowHosts: values['allow-host'],
    spareKernels,
  });
  console.log(`Nighthawk TS notebook server
  notebooks: ${server.notebookDir}
  data:      ${server.dataDir}
  web UI:    ${existsSync(path.resolve(values['static-dir'], 'index.html')) ? path.resolve(values['static-dir']) : 'not built (API only)'}

  Open: ${server.url}
`);
  // Open tabs keep connections to kernels they no longer use, so connected kernels are culled too.
  const stopCulling = cullIdleKernels(server.kernels, { idleMs: cullMinutes * 60_000, cullConnected: true, log: (line) => console.log(line) });
  if (!values['no-open']) openBrowser(server.url);
  const stop = (): void => {
    stopCulling();
    void server.close().then(() => process.exit(0));
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : String(error));
  // A bad command line exits 2 with the usage, as `nighthawk-ts` does; anything else (a busy port range, an
  // unreadable token file) is not a usage problem and exits 1.
  if (error instanceof CommandLineError) {
    console.error(USAGE);
    process.exit(2);
  }
  process.exit(1);
});
