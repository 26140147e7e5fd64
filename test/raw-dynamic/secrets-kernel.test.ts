/**
 * Secrets stay out of kernel outputs and saved notebooks (issue 13, item 5): the provider key in the
 * server's environment and a secret a cell registers are redacted in everything the kernel sends and in
 * every notebook the contents API writes.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Kernel } from '@jupyterlab/services';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { runCell } from '../support/kernel-client.js';
import { ContentsManager, startKernelServer, type KernelServerFixture } from '../support/kernel-server.js';

const KEY = 'sk-test-KERNEL-REDACT-0123456789';
const TOKEN = 'cell-token-9f8e7d6c5b4a3921';
let fx: KernelServerFixture;
let kernel: Kernel.IKernelConnection;
let contents: ContentsManager;
const savedEnv = process.env['OPENAI_API_KEY'];
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
/** The Session kernel host, as `npm start` runs it: cells and host share one library instance. */
const hostModule = path.join(root, 'dist', 'kernel', 'src', 'server', 'display', 'session-host.js');

beforeAll(async () => {
  process.env['OPENAI_API_KEY'] = KEY;
  if (!existsSync(hostModule)) execFileSync(process.execPath, [path.join(root, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', 'tsconfig.build.json'], { cwd: root, stdio: 'ignore' });
  fx = await startKernelServer({ spareKernels: 0, kernelCwd: root, hostModule });
  kernel = await fx.kernels.startNew();
  await kernel.info;
  contents = new ContentsManager({ serverSettings: fx.settings });
}, 60_000);

afterAll(async () => {
  contents?.dispose();
  await fx?.close();
  if (savedEnv === undefined) delete process.env['OPENAI_API_KEY'];
  else process.env['OPENAI_API_KEY'] = savedEnv;
});

describe('secrets in kernel outputs and saved notebooks', () => {
  test('stream, result and error outputs carry [redacted:NAME] instead of the configured key or a registered secret', async () => {
    const register = await runCell(kernel, `import { registerSecret } from 'nighthawk-ts';\nregisterSecret('CELL_TOKEN', '${TOKEN}');\n'registered'`);
    expect(register.reply.status).toBe('ok');
    const run = await runCell(kernel, `console.log('key', process.env.OPENAI_API_KEY); console.error('${TOKEN}'); ({ key: process.env.OPENAI_API_KEY, token: '${TOKEN}' })`);
    const everything = JSON.stringify(run.iopub.map((m) => m.content));
    expect(everything).not.toContain(KEY);
    expect(everything).not.toContain(TOKEN);
    expect(run.stdout).toContain('key [redacted:OPENAI_API_KEY]');
    expect(run.stderr).toContain('[redacted:CELL_TOKEN]');
    expect(JSON.stringify(run.result)).toContain('[redacted:CELL_TOKEN]');
    const failing = await runCell(kernel, `throw new Error('${TOKEN}')`);
    expect(JSON.stringify(failing.iopub.map((m) => m.content))).not.toContain(TOKEN);
  });

  test('a saved notebook holds [redacted:OPENAI_API_KEY] on disk', async () => {
    const notebook = {
      nbformat: 4,
      nbformat_minor: 5,
      metadata: {},
      cells: [{ id: 'c1', cell_type: 'code', metadata: {}, source: 'key()', execution_count: 1, outputs: [{ output_type: 'stream', name: 'stdout', text: `the key is ${KEY}\n` }] }],
    };
    await contents.save('secret.ipynb', { type: 'notebook', format: 'json', content: notebook });
    const onDisk = readFileSync(path.join(fx.notebookDir, 'secret.ipynb'), 'utf8');
    expect(onDisk).not.toContain(KEY);
    expect(onDisk).toContain('the key is [redacted:OPENAI_API_KEY]');
  });
});
