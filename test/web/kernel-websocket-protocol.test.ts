// The kernel WebSocket's framing: a server that speaks `v1.kernel.websocket.jupyter.org` (Jupyter Server 2, the
// Nighthawk server) is reached with one handshake and carries every channel in the binary layout; a server
// that selects no subprotocol still gets a working notebook (the page reconnects with JSON frames).
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { fakeNotebookSuite, openNotebook, type FakeNotebookSuite } from './web-harness.js';

const token = 'protocol-token';
const notebooks = { 'framing.ipynb': [{ source: 'ask()' }] };

/** Runs the cell, answers its input request, and returns the WebSockets the page opened meanwhile. */
async function runWithInput(suite: FakeNotebookSuite): Promise<{ page: Page; sockets: string[] }> {
  const page = await suite.browser.newPage({ viewport: { width: 1280, height: 900 } });
  const sockets: string[] = [];
  page.on('websocket', (ws) => sockets.push(ws.url()));
  await openNotebook(page, suite.server.url, token, 'framing.ipynb', { untouched: true });
  await page.evaluate(`document.querySelector('button[aria-label="Run all cells"]').click()`);
  const input = page.locator('.stdin-input');
  await input.fill('Ada');
  await input.press('Enter');
  await page.locator('.output-stream', { hasText: 'hello Ada' }).waitFor();
  return { page, sockets };
}

const script = async (ctx: { input(prompt: string): Promise<string>; stream(name: 'stdout', text: string): void }): Promise<void> => {
  const name = await ctx.input('name?');
  ctx.stream('stdout', `hello ${name}\n`);
};

describe('web notebook: kernel WebSocket on a v1-protocol server', () => {
  const suite = fakeNotebookSuite({ token, notebooks, script });

  it('connects with a single handshake and runs a cell that reads input', { timeout: 60_000 }, async () => {
    const { page, sockets } = await runWithInput(suite);
    expect(sockets.filter((url) => url.includes('/channels'))).toHaveLength(1);
    expect(suite.server.received.some((f) => f.header.msg_type === 'input_reply' && f.content.value === 'Ada')).toBe(true);
    await page.close();
  });
});

describe('web notebook: kernel WebSocket on a server without subprotocols', () => {
  const suite = fakeNotebookSuite({ token, notebooks, script, v1Protocol: false });

  it('falls back to JSON frames and runs a cell that reads input', { timeout: 60_000 }, async () => {
    const { page, sockets } = await runWithInput(suite);
    // The first handshake (offering the subprotocol) is refused by the browser; the second has none.
    expect(sockets.filter((url) => url.includes('/channels')).length).toBeGreaterThan(1);
    expect(suite.server.received.some((f) => f.header.msg_type === 'input_reply' && f.content.value === 'Ada')).toBe(true);
    await page.close();
  });
});
