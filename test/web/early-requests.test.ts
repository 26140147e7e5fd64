// A page opened on a notebook sends its first REST requests before its main script has evaluated, and the app
// uses those responses: the notebook file is asked for once, and the notebook's session at once (a POST that
// finds or starts it), with no session list or kernelspecs asked for first.
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { LOAD_MARK_PREFIX, LOAD_MARKS } from '../../web/src/load-marks.js';
import { fakeNotebookSuite, openNotebook } from './web-harness.js';

const token = 'early-token';

interface SessionModel {
  id: string;
  path: string;
  kernel: { id: string };
}

async function sessionsOf(baseUrl: string, path: string): Promise<SessionModel[]> {
  const list = (await (await fetch(`${baseUrl}/api/sessions?token=${token}`)).json()) as SessionModel[];
  return list.filter((s) => s.path === path);
}

/** Every /api/ request the page sends and the status of each response, in order. */
function recordApi(page: Page): string[] {
  const log: string[] = [];
  const name = (url: string): string => decodeURIComponent(new URL(url).pathname);
  page.on('request', (r) => void (name(r.url()).startsWith('/api/') && log.push(`${r.method()} ${name(r.url())}`)));
  page.on('response', (r) => void (name(r.url()).startsWith('/api/') && log.push(`${r.request().method()} ${name(r.url())} ${r.status()}`)));
  return log;
}

describe('web notebook: early requests', () => {
  const suite = fakeNotebookSuite({
    token,
    notebooks: { 'early nb.ipynb': [{ source: '1 + 1' }] },
    script: (ctx) => ctx.result({ 'text/plain': `ran: ${ctx.code}` }),
  });

  it('asks for the notebook once and starts its session with one POST, before any list, and the notebook opens and runs', { timeout: 60_000 }, async () => {
    const page = await suite.browser.newPage({ viewport: { width: 1280, height: 900 } });
    const gets: string[] = [];
    const posts: string[] = [];
    page.on('request', (r) => {
      const url = new URL(r.url());
      if (r.method() === 'GET' && url.pathname.startsWith('/api/')) gets.push(decodeURIComponent(url.pathname));
      if (r.method() === 'POST' && url.pathname.startsWith('/api/sessions')) posts.push(decodeURIComponent(url.pathname));
    });
    await openNotebook(page, suite.server.url, token, 'early nb.ipynb', { untouched: true });
    const count = (path: string): number => gets.filter((p) => p === path).length;
    expect(count('/api/contents/early nb.ipynb')).toBe(1);
    // Connected without them: neither list was asked for before the kernel read idle.
    expect(count('/api/sessions')).toBe(0);
    expect(count('/api/kernelspecs')).toBe(0);
    expect(posts).toEqual(['/api/sessions']);
    await expect(page.locator('.cell').first().locator('.static-source').innerText()).resolves.toBe('1 + 1');
    // Each step of the load left one User Timing mark, in the order the steps depend on one another.
    const marks = (await page.evaluate(`Object.fromEntries(${JSON.stringify(LOAD_MARKS)}.map((n) => [n, performance.getEntriesByName(${JSON.stringify(LOAD_MARK_PREFIX)} + n).map((m) => m.startTime)]))`)) as Record<string, number[]>;
    for (const name of LOAD_MARKS) expect(marks[name], name).toHaveLength(1);
    const at = (name: string): number => marks[name]![0]!;
    expect(at('requests-sent')).toBeLessThanOrEqual(at('notebook-read'));
    expect(at('notebook-read')).toBeLessThanOrEqual(at('notebook-drawn'));
    expect(at('draft-read')).toBeLessThanOrEqual(at('notebook-drawn'));
    expect(at('kernel-idle')).toBeLessThanOrEqual(Number(await page.locator('body').getAttribute('data-interactive-at')));
    await page.evaluate(`document.querySelector('button[aria-label="Run all cells"]').click()`);
    await page.locator('.cell').first().locator('.output-execute_result', { hasText: 'ran: 1 + 1' }).waitFor();
    await page.close();
  });

  it('opens the kernel\'s WebSocket once the session answers, and the kernel connection takes that socket', { timeout: 60_000 }, async () => {
    const page = await suite.browser.newPage({ viewport: { width: 1280, height: 900 } });
    await page.addInitScript(`(() => {
      window.__channelSockets = 0;
      window.WebSocket = new Proxy(window.WebSocket, { construct(target, args) { window.__channelSockets++; return Reflect.construct(target, args); } });
    })()`);
    await openNotebook(page, suite.server.url, token, 'early nb.ipynb', { untouched: true });
    // The early requests opened it (their mark) and nobody opened another: services' connection took it.
    const mark = (await page.evaluate(`performance.getEntriesByName(${JSON.stringify(LOAD_MARK_PREFIX + 'kernel-socket')}).length`)) as number;
    expect(mark).toBe(1);
    expect(await page.evaluate('window.__channelSockets')).toBe(1);
    await page.locator('.kernel-status', { hasText: 'Kernel: idle' }).waitFor();
    await page.evaluate(`document.querySelector('button[aria-label="Run all cells"]').click()`);
    await page.locator('.cell').first().locator('.output-execute_result', { hasText: 'ran: 1 + 1' }).waitFor();
    expect(await page.evaluate('window.__channelSockets')).toBe(1);
    await page.close();
  });

  it('sends the notebook\'s GET and session POST, and opens the kernel\'s socket, before the page\'s scripts arrive', { timeout: 60_000 }, async () => {
    const page = await suite.browser.newPage({ viewport: { width: 1280, height: 900 } });
    const api: string[] = [];
    page.on('request', (r) => {
      const url = new URL(r.url());
      if (url.pathname.startsWith('/api/')) api.push(`${r.method()} ${decodeURIComponent(url.pathname)}`);
    });
    const sockets: string[] = [];
    page.on('websocket', (ws) => void sockets.push(new URL(ws.url()).pathname));
    // The entry and the services chunk are held: what reaches the server meanwhile was sent by the inlined script.
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route(/\/assets\/(index|services)-[\w-]+\.js$/, async (route) => {
      await held;
      await route.continue();
    });
    await page.goto(`${suite.server.url}/?token=${token}&path=${encodeURIComponent('early nb.ipynb')}`, { waitUntil: 'commit' });
    await expect.poll(() => sockets.length, { timeout: 20_000 }).toBe(1);
    // In either order: both leave at once.
    expect([...api].sort()).toEqual(['GET /api/contents/early nb.ipynb', 'POST /api/sessions']);
    expect(sockets).toHaveLength(1);
    expect(sockets[0]).toMatch(/^\/api\/kernels\/[\w-]+\/channels$/);
    release();
    await page.locator('.kernel-status[data-status="idle"]').waitFor();
    // Services took those answers: neither the notebook nor the session was asked for again.
    expect(api.filter((a) => a === 'GET /api/contents/early nb.ipynb')).toHaveLength(1);
    expect(api.filter((a) => a === 'POST /api/sessions')).toHaveLength(1);
    await page.evaluate(`document.querySelector('button[aria-label="Run all cells"]').click()`);
    await page.locator('.cell').first().locator('.output-execute_result', { hasText: 'ran: 1 + 1' }).waitFor();
    await page.close();
  });

  /** The page's load marks, in ms from navigation (each set once). */
  const loadMarks = async (page: Page): Promise<Record<string, number>> =>
    (await page.evaluate(`Object.fromEntries(performance.getEntriesByType('mark').filter((m) => m.name.startsWith(${JSON.stringify(LOAD_MARK_PREFIX)})).map((m) => [m.name.slice(${LOAD_MARK_PREFIX.length}), m.startTime]))`)) as Record<string, number>;

  it('the first draw comes after the kernel connected, or 150 ms after the notebook was read if it has not', { timeout: 60_000 }, async () => {
    const page = await suite.browser.newPage({ viewport: { width: 1280, height: 900 } });
    await openNotebook(page, suite.server.url, token, 'early nb.ipynb', { untouched: true });
    const marks = await loadMarks(page);
    // The drawing's long task would otherwise hold back each link of the connection's chain.
    expect(marks['notebook-drawn']! >= marks['kernel-idle']! || marks['notebook-drawn']! - marks['notebook-read']! >= 145).toBe(true);
    await page.close();
  });

  it('a kernel that does not connect holds the first draw back 150 ms, not longer', { timeout: 60_000 }, async () => {
    const page = await suite.browser.newPage({ viewport: { width: 1280, height: 900 } });
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route((url) => url.pathname === '/api/sessions', async (route) => {
      await held;
      await route.continue();
    });
    await page.goto(`${suite.server.url}/?token=${token}&path=${encodeURIComponent('early nb.ipynb')}`);
    await page.locator('.cell .static-source', { hasText: '1 + 1' }).waitFor({ timeout: 20_000 });
    const marks = await loadMarks(page);
    expect(marks['kernel-idle']).toBeUndefined();
    expect(marks['notebook-drawn']! - marks['notebook-read']!).toBeGreaterThanOrEqual(145);
    release();
    await page.locator('.kernel-status[data-status="idle"]').waitFor();
    await page.close();
  });

  it('a second page on the same notebook joins its session: one kernel, not two', { timeout: 60_000 }, async () => {
    const first = await suite.browser.newPage({ viewport: { width: 1280, height: 900 } });
    await openNotebook(first, suite.server.url, token, 'early nb.ipynb', { untouched: true });
    const second = await suite.browser.newPage({ viewport: { width: 1280, height: 900 } });
    await openNotebook(second, suite.server.url, token, 'early nb.ipynb', { untouched: true });
    const sessions = await sessionsOf(suite.server.url, 'early nb.ipynb');
    expect(sessions).toHaveLength(1);
    await second.evaluate(`document.querySelector('button[aria-label="Run all cells"]').click()`);
    await second.locator('.output-execute_result', { hasText: 'ran: 1 + 1' }).waitFor();
    await first.close();
    await second.close();
  });

  it('a notebook that cannot be opened says so, leaves no kernel it started, and lists the notebooks to open instead', { timeout: 60_000 }, async () => {
    const page = await suite.browser.newPage({ viewport: { width: 1280, height: 900 } });
    const shutDown = page.waitForRequest((r) => r.method() === 'DELETE' && new URL(r.url()).pathname.startsWith('/api/sessions/'));
    await page.goto(`${suite.server.url}/?token=${token}&path=${encodeURIComponent('missing.ipynb')}`);
    await page.locator('#toast', { hasText: 'Cannot open missing.ipynb: No such file' }).waitFor();
    // Sent before the toast (App.open discards before it rethrows).
    await shutDown;
    expect(await sessionsOf(suite.server.url, 'missing.ipynb')).toEqual([]);
    // Nothing is open, so nothing that acts on a notebook can be clicked.
    const runAll = page.getByRole('button', { name: 'Run all cells' });
    expect(await runAll.isDisabled()).toBe(true);
    expect(await page.getByRole('button', { name: 'Rename notebook' }).isDisabled()).toBe(true);
    // The file list shows what there is to open instead, and opening from it works.
    const listed = page.locator('ul[aria-label="notebooks"] li', { hasText: 'early nb.ipynb' });
    await listed.waitFor({ timeout: 10_000 });
    await listed.click();
    await page.locator('.cell', { hasText: '1 + 1' }).first().waitFor();
    expect(await runAll.isEnabled()).toBe(true);
    await page.close();
  });

  it('a notebook that cannot be opened leaves a session it found running', { timeout: 60_000 }, async () => {
    const started = await fetch(`${suite.server.url}/api/sessions?token=${token}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ path: 'gone.ipynb', type: 'notebook', name: 'gone.ipynb', kernel: { name: 'nighthawk' } }),
    });
    const before = (await started.json()) as SessionModel;
    const page = await suite.browser.newPage({ viewport: { width: 1280, height: 900 } });
    const deletes: string[] = [];
    page.on('request', (r) => void (r.method() === 'DELETE' && deletes.push(r.url())));
    await page.goto(`${suite.server.url}/?token=${token}&path=gone.ipynb`);
    await page.locator('#toast', { hasText: 'Cannot open gone.ipynb' }).waitFor();
    // The toast follows the page's decision about the session (App.open discards before it rethrows).
    expect(deletes).toEqual([]);
    expect((await sessionsOf(suite.server.url, 'gone.ipynb')).map((s) => s.id)).toEqual([before.id]);
    await page.close();
  });
});

describe('web notebook: a server without the Nighthawk kernelspec', () => {
  const suite = fakeNotebookSuite({
    token,
    notebooks: { 'other kernel.ipynb': [{ source: '2 + 2' }] },
    script: (ctx) => ctx.result({ 'text/plain': `ran: ${ctx.code}` }),
    kernelName: 'tslab',
  });

  it('refuses the early session; the page lists sessions and kernelspecs and starts one with the default kernel', { timeout: 60_000 }, async () => {
    const page = await suite.browser.newPage({ viewport: { width: 1280, height: 900 } });
    const whats = recordApi(page);
    await openNotebook(page, suite.server.url, token, 'other kernel.ipynb', { untouched: true });
    expect(whats.filter((w) => w.startsWith('POST /api/sessions '))).toEqual(['POST /api/sessions 501', 'POST /api/sessions 201']);
    expect(whats).toContain('GET /api/sessions 200');
    expect(whats).toContain('GET /api/kernelspecs 200');
    const sessions = await sessionsOf(suite.server.url, 'other kernel.ipynb');
    expect(sessions).toHaveLength(1);
    await page.evaluate(`document.querySelector('button[aria-label="Run all cells"]').click()`);
    await page.locator('.output-execute_result', { hasText: 'ran: 2 + 2' }).waitFor();
    await page.close();
  });
});
