import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { ContentsManager, KernelManager, KernelSpecAPI, SessionManager, type Session } from '@jupyterlab/services';
import WebSocket from 'ws';
import { NighthawkMime } from '../../shared/mime.js';
import { webConnection, webKernelSession } from './web-modules.js';
import { runCell, type CellRun } from '../support/kernel-client.js';
import { startJupyterServer, type JupyterServer } from './jupyter-server.js';
import { installedKernel, type JupyterEnv } from './zmq-fixture.js';

const NOTEBOOK = 'notebooks/getting-started.ipynb';

let jupyter: JupyterEnv;
let server: JupyterServer;
let session: Session.ISessionConnection;
let kernels: KernelManager;
let sessions: SessionManager;

interface NotebookCell {
  cell_type: string;
  source: string | string[];
}

beforeAll(async () => {
  // Installed under the name the project's notebooks record in their metadata, so they open with it.
  jupyter = await installedKernel({ name: 'nighthawk' });
  server = await startJupyterServer(jupyter);
  kernels = new KernelManager({ serverSettings: server.settings });
  sessions = new SessionManager({ kernelManager: kernels, serverSettings: server.settings });
}, 120_000);

afterAll(async () => {
  await session?.shutdown().catch(() => {});
  sessions?.dispose();
  kernels?.dispose();
  await server?.stop();
  jupyter?.cleanup();
});

describe('the kernelspec under Debian jupyter-server, driven by @jupyterlab/services', () => {
  test('the server lists the installed kernelspec with its display name, language and logo', async () => {
    const specs = await KernelSpecAPI.getSpecs(server.settings);
    const spec = specs.kernelspecs['nighthawk'];
    expect(spec?.display_name).toBe('Nighthawk TS');
    expect(spec?.language).toBe('typescript');
    expect(Object.keys(spec?.resources ?? {})).toEqual(expect.arrayContaining(['logo-64x64', 'logo-32x32']));
    const logo = await fetch(new URL(spec!.resources['logo-64x64']!, server.baseUrl), { headers: { Authorization: `token ${server.token}` } });
    expect(logo.headers.get('content-type')).toBe('image/png');
  });

  test('the getting-started notebook (opened by its recorded kernelspec name) runs cell by cell through the server: no errors, the label, the ledger display with its fallback', async () => {
    const contents = new ContentsManager({ serverSettings: server.settings });
    const model = await contents.get(NOTEBOOK, { content: true });
    const notebook = model.content as { cells: NotebookCell[]; metadata: { kernelspec: { name: string } } };
    session = await sessions.startNew({ path: NOTEBOOK, type: 'notebook', name: 'getting-started.ipynb', kernel: { name: notebook.metadata.kernelspec.name } });
    const kernel = session.kernel!;
    expect((await kernel.info).implementation).toBe('nighthawk');
    const runs: CellRun[] = [];
    for (const cell of notebook.cells.filter((c) => c.cell_type === 'code')) {
      const source = Array.isArray(cell.source) ? cell.source.join('') : cell.source;
      const run = await runCell(kernel, source);
      if (run.error) expect.fail(`cell failed: ${source}\n${run.error.ename}: ${run.error.evalue}`);
      runs.push(run);
    }
    expect(runs.every((r) => r.reply.status === 'ok')).toBe(true);
    // The notebook's own checks: the triage label and a ledger view whose text/plain fallback other frontends show.
    expect(runs.map((r) => r.result?.['text/plain'])).toContain("'bug'");
    const ledgers = runs.flatMap((r) => r.displays).map((m) => (m.content as { data: Record<string, unknown> }).data).filter((d) => NighthawkMime.ledger in d);
    expect(ledgers.length).toBeGreaterThan(0);
    expect(ledgers[0]!['text/plain']).toMatch(/^ledger: \d+ entries/);
  }, 120_000);

  test('tslab display calls and console.clear() arrive as display_data, update_display_data and clear_output', async () => {
    const kernel = session.kernel!;
    const run = await runCell(
      kernel,
      'import * as tslab from "tslab";\ntslab.display.html("<b>bold</b>");\nconst d = tslab.newDisplay();\nd.text("first");\nd.text("second");\nconsole.clear();',
    );
    const seen = run.iopub.map((m) => m.header.msg_type).filter((t) => t !== 'status' && t !== 'execute_input');
    expect(seen).toEqual(['display_data', 'display_data', 'update_display_data', 'clear_output']);
    const [html, first, second] = run.displays.map((m) => m.content as { data: Record<string, unknown>; transient?: { display_id: string } });
    expect(html!.data).toEqual({ 'text/html': '<b>bold</b>' });
    expect(first!.transient?.display_id).toBe(second!.transient?.display_id);
    expect(second!.data).toEqual({ 'text/plain': 'second' });
  });

  test('interrupt through the server REST API stops an awaiting cell', async () => {
    const kernel = session.kernel!;
    const future = kernel.requestExecute({ code: 'console.log("waiting");\nawait new Promise(() => {});' });
    await new Promise<void>((resolve) => {
      future.onIOPub = (msg) => {
        if (msg.header.msg_type === 'stream') resolve();
      };
    });
    const asked = Date.now();
    await kernel.interrupt();
    const answered = Date.now();
    // Seen once under heavy load (no reply before the test's timeout): leave the evidence if it happens again.
    const timer = setTimeout(() => console.log(`no execute_reply 20 s after the interrupt (REST answered in ${answered - asked} ms; kernel ${kernel.status})\n${server.log().slice(-6000)}`), 20_000);
    const reply = await future.done.catch((error: { content?: unknown }) => ({ content: error.content }));
    clearTimeout(timer);
    expect(reply.content).toMatchObject({ status: 'error', ename: 'KeyboardInterrupt' });
  });

  test('the web notebook pointed at the server with ?server=…&token=… starts its sessions on the nighthawk kernelspec, not the server default', async () => {
    const page = new URL('http://127.0.0.1:5173/');
    page.searchParams.set('server', server.baseUrl);
    // Node has no WebSocket global for the settings the page would make in a browser.
    (globalThis as { WebSocket?: unknown }).WebSocket ??= WebSocket;
    const settings = (await webConnection()).serverSettings(server.token, page);
    expect(settings.baseUrl).toBe(server.baseUrl);
    expect(settings.wsUrl).toBe(server.baseUrl.replace('http:', 'ws:'));
    expect((await KernelSpecAPI.getSpecs(settings)).default).toBe('python3');
    const web = await webKernelSession(settings);
    await web.open('notebooks/from-the-web-notebook.ipynb');
    try {
      expect(web.kernel?.name).toBe('nighthawk');
      const run = await runCell(web.kernel!, '6 * 7');
      expect(run.result?.['text/plain']).toBe('42');
    } finally {
      await web.kernel?.shutdown();
      await web.close();
    }
  });
});
