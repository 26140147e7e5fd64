import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Kernel } from '@jupyterlab/services';
import { startKernelServer, type KernelServerFixture } from '../support/kernel-server.js';
import { runCell } from '../support/kernel-client.js';
import { ensureKernelBuilt, root } from './zmq-fixture.js';

// The same cell as the ZeroMQ end-to-end test, through the project's own WebSocket kernel server.
let fx: KernelServerFixture;
let kernel: Kernel.IKernelConnection;

beforeAll(async () => {
  ensureKernelBuilt();
  fx = await startKernelServer({ spareKernels: 0, kernelCwd: root, hostModule: path.join(root, 'dist', 'kernel', 'src', 'server', 'display', 'session-host.js') });
  kernel = await fx.kernels.startNew();
  await kernel.info;
}, 120_000);

afterAll(async () => {
  await fx?.close();
});

describe('tslab display API in the WebSocket kernel', () => {
  test('tslab display calls and console.clear() arrive as display_data, update_display_data and clear_output', async () => {
    const run = await runCell(
      kernel,
      'import * as tslab from "tslab";\ntslab.display.html("<b>bold</b>");\nconst d = tslab.newDisplay();\nd.text("first");\nd.text("second");\nconsole.clear();',
    );
    expect(run.error).toBeUndefined();
    const seen = run.iopub.map((m) => m.header.msg_type).filter((t) => t !== 'status' && t !== 'execute_input');
    expect(seen).toEqual(['display_data', 'display_data', 'update_display_data', 'clear_output']);
    const [html, first, second] = run.displays.map((m) => m.content as { data: Record<string, unknown>; transient?: { display_id: string } });
    expect(html!.data).toEqual({ 'text/html': '<b>bold</b>' });
    expect(first!.transient?.display_id).toBe(second!.transient?.display_id);
    expect(second!.data).toEqual({ 'text/plain': 'second' });
  });

  test('tslab.display.png and jpeg send base64 image data', async () => {
    const run = await runCell(kernel, 'import * as tslab from "tslab";\ntslab.display.png(new Uint8Array([1, 2, 3]));\ntslab.display.jpeg(new Uint8Array([4, 5]));');
    const data = run.displays.map((m) => (m.content as { data: Record<string, unknown> }).data);
    expect(data).toEqual([{ 'image/png': 'AQID' }, { 'image/jpeg': 'BAU=' }]);
  });
});
