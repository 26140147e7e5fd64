/**
 * Kernel server benchmarks, each beside tslab's own ZeroMQ kernel measured in the same run:
 * - execute round trip (request → reply and idle) for `1+1` and a one-line typed function cell, through
 *   @jupyterlab/services over our WebSocket vs. a ZeroMQ client talking to `tslab kernel`;
 * - kernel start to first kernel_info reply: from a pre-warmed spare (how the server starts kernels), from a
 *   cold process (no spare), and tslab's process start.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { KernelManager, type Kernel } from '@jupyterlab/services';
import { report, sample } from './stats.js';
import { startServer, type NighthawkServer } from '../kernel/src/server/index.js';
import { clientSettings } from '../test/support/kernel-server.js';
import { TslabZmqKernel } from '../test/support/kernel-tslab-zmq.js';

const N = Number(process.env.BENCH_N ?? 300);
const progress = (what: string) => process.stderr.write(`# ${what}\n`);
const ONE_PLUS_ONE = '1+1';
const TYPED_FN = 'const double = (x: number): number => x * 2; double(21)';
const sandbox = mkdtempSync(path.join(tmpdir(), 'nighthawk-bench-'));

async function server(spareKernels: number): Promise<{ server: NighthawkServer; manager: KernelManager }> {
  const s = await startServer({ notebookDir: path.join(sandbox, 'nb'), port: 0, spareKernels, log: () => {} });
  return { server: s, manager: new KernelManager({ serverSettings: clientSettings(s) }) };
}

async function execute(kernel: Kernel.IKernelConnection, code: string): Promise<void> {
  const reply = await kernel.requestExecute({ code }).done;
  if (reply.content.status !== 'ok') throw new Error(`cell failed: ${JSON.stringify(reply.content)}`);
}

async function startToInfo(manager: KernelManager): Promise<number> {
  const t0 = performance.now();
  const kernel = await manager.startNew();
  await kernel.info;
  const elapsed = performance.now() - t0;
  await kernel.shutdown();
  return elapsed;
}

async function main(): Promise<void> {
  // tslab's ZeroMQ kernel: start, then execution samples.
  const tslabStarts: number[] = [];
  let tslab: TslabZmqKernel | undefined;
  for (let i = 0; i < 3; i++) {
    const t0 = performance.now();
    const k = await TslabZmqKernel.start(process.cwd());
    await k.request('kernel_info_request', {}, false);
    tslabStarts.push(performance.now() - t0);
    if (i < 2) k.close();
    else tslab = k;
  }
  const tslabRun = (code: string) => async () => {
    const reply = await tslab!.request('execute_request', { code, silent: false, store_history: true, allow_stdin: false, stop_on_error: false });
    if (reply.content['status'] !== 'ok') throw new Error(`tslab cell failed: ${JSON.stringify(reply.content)}`);
  };
  progress('tslab started');
  const tslabOnePlusOne = await sample(N, tslabRun(ONE_PLUS_ONE));
  const tslabTyped = await sample(N, tslabRun(TYPED_FN));
  tslab!.close();
  progress('tslab sampled');

  // Ours, with the default pool of one warm spare.
  const pooled = await server(1);
  await pooled.server.kernels.waitForSpare();
  const kernel = await pooled.manager.startNew();
  await kernel.info;
  progress('ours started');
  const ours = await sample(N, () => execute(kernel, ONE_PLUS_ONE));
  const oursTyped = await sample(N, () => execute(kernel, TYPED_FN));
  await kernel.shutdown();
  progress('ours sampled');
  const pooledStarts: number[] = [];
  for (let i = 0; i < 3; i++) {
    // The previous start consumed the spare; wait until its replacement is warm before timing the next one.
    await pooled.server.kernels.waitForSpare();
    pooledStarts.push(await startToInfo(pooled.manager));
  }
  pooled.manager.dispose();
  await pooled.server.close();

  progress('pooled starts done');
  const cold = await server(0);
  const coldStarts: number[] = [];
  for (let i = 0; i < 3; i++) coldStarts.push(await startToInfo(cold.manager));
  cold.manager.dispose();
  await cold.server.close();

  report('kernel-server.execute-1plus1', ours, tslabOnePlusOne);
  report('kernel-server.execute-typed-fn', oursTyped, tslabTyped);
  report('kernel-server.start-pooled-to-info', pooledStarts, tslabStarts);
  report('kernel-server.start-cold-to-info', coldStarts, tslabStarts);
  rmSync(sandbox, { recursive: true, force: true });
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
