/**
 * Compiler snapshots (compiler-snapshot.ts): a kernel process started from one has tslab's program built before
 * its first instruction, checks types exactly as a fresh compiler does, hands nothing to cell code, and drops a
 * blob whose program read files that changed since (the next kernel builds a fresh one). A blob or directory
 * other users could write is never used. A kernel a client waits for starts from its directory's blob.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
  buildCompilerSnapshot,
  compilerSnapshotTarget,
  readyCompilerSnapshot,
  type CompilerSnapshotTarget,
} from '../../kernel/src/server/kernel/compiler-snapshot.js';
import { KernelProcess, kernelNodeFlags } from '../../kernel/src/server/kernel/kernel-process-handle.js';
import { startKernelServer } from '../support/kernel-server.js';
import { runCell } from '../support/kernel-client.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const compilerModule = path.join(root, 'dist', 'kernel', 'src', 'server', 'kernel', 'tslab-compiler.js');
const sessionHost = path.join(root, 'dist', 'kernel', 'src', 'server', 'display', 'session-host.js');
const scratch = mkdtempSync(path.join(tmpdir(), 'nighthawk-compiler-snapshot-'));
const snapshots = path.join(scratch, 'snapshots');
const env = { ...process.env, NIGHTHAWK_COMPILER_SNAPSHOT_DIR: snapshots, NIGHTHAWK_CONVERSION_CACHE_DIR: 'off' };
const SLOT = 'nighthawk.kernel.compilerSnapshot';

/**
 * Runs cells in a process started from `blob` (or from no blob) in `cwd`, through the kernel's own compiler,
 * and reports whether its program was built before the first conversion, what cell code saw in the registry
 * slot, and each cell's outcome.
 */
function probe(cwd: string, blob: string | undefined, cells: string[], pauseBefore = -1, before = ''): { built: boolean; slot: string; outcomes: Array<{ kind: string; text: string }> } {
  const script = path.join(scratch, `probe-${Math.random().toString(36).slice(2)}.mjs`);
  writeFileSync(
    script,
    `const { createTslabCompiler } = await import(${JSON.stringify(pathToFileURL(compilerModule).href)});
${before}
const compiler = createTslabCompiler({});
const built = compiler.built;
const slot = await compiler.execute('typeof (globalThis as any)[Symbol.for(${JSON.stringify(SLOT)})]', { executionCount: 1 });
const outcomes = [];
for (const [i, cell] of ${JSON.stringify(cells)}.entries()) {
  if (i === ${pauseBefore}) await new Promise((r) => setTimeout(r, 1500));
  const o = await compiler.execute(cell, { executionCount: i + 2 });
  outcomes.push({ kind: o.kind, text: o.kind === 'ok' ? String(o.value?.['text/plain'] ?? '') : [o.evalue, ...(o.traceback ?? [])].join('\\n') });
}
process.stdout.write(JSON.stringify({ built, slot: String(slot.value?.['text/plain']), outcomes }));
process.exit(0);
`,
  );
  const args = [...kernelNodeFlags(), ...(blob ? ['--snapshot-blob', blob] : []), script];
  const run = spawnSync(process.execPath, args, { cwd, env, encoding: 'utf8', timeout: 60_000 });
  if (run.status !== 0) throw new Error(`probe exited ${run.status}: ${run.stderr}`);
  return JSON.parse(run.stdout) as ReturnType<typeof probe>;
}

async function built(cwd: string): Promise<CompilerSnapshotTarget & { path: string }> {
  const target = compilerSnapshotTarget(cwd, kernelNodeFlags(), env);
  if (!target) throw new Error('no compiler snapshot target: is dist built?');
  expect(await buildCompilerSnapshot(target)).toBe(true);
  const blob = readyCompilerSnapshot(target);
  expect(blob).toBe(target.blob);
  return { ...target, path: blob! };
}

/** A project whose @types package declares a global (`probeGlobal: number`): its program reads that file. */
function projectWithGlobal(): { project: string; declarations: string } {
  const project = mkdtempSync(path.join(scratch, 'project-'));
  const types = path.join(project, 'node_modules', '@types', 'probe-global');
  mkdirSync(types, { recursive: true });
  writeFileSync(path.join(types, 'package.json'), JSON.stringify({ name: '@types/probe-global', types: 'index.d.ts' }));
  const declarations = path.join(types, 'index.d.ts');
  writeFileSync(declarations, 'declare const probeGlobal: number;\n');
  return { project, declarations };
}

beforeAll(() => {
  // `npm test` builds first; a lone run of this file builds what is missing (the snapshot's builder is bundled then).
  if (!existsSync(path.join(root, 'dist', 'kernel', 'src', 'server', 'kernel', 'compiler-snapshot-entry.cjs'))) {
    execFileSync('npm', ['run', '--silent', 'build'], { cwd: root, stdio: 'ignore' });
  }
});

afterAll(() => {
  rmSync(scratch, { recursive: true, force: true });
});

describe('a kernel process started from a compiler snapshot', () => {
  test('has its program built before the first cell, checks types as a fresh compiler does, and hands cell code nothing', async () => {
    const target = await built(root);
    // The last cell: the blob's converter is mended as a fresh one is (tslab-converter-fixes.ts).
    const cells = ['import * as nh from "nighthawk-ts";\ntypeof nh.Session', 'const n: number = "text";', 'const k: number = 6;\nk * 7', 'const __k = 5;\n__k + 1'];
    const fromBlob = probe(root, target.path, cells);
    const fresh = probe(root, undefined, cells);
    expect(fromBlob.built).toBe(true);
    expect(fresh.built).toBe(false);
    // The registry slot the snapshot hands the compiler through is gone before any cell runs.
    expect(fromBlob.slot).toBe("'undefined'");
    expect(fromBlob.outcomes[0]).toEqual({ kind: 'ok', text: "'function'" });
    expect(fromBlob.outcomes[1]!.kind).toBe('error');
    expect(fromBlob.outcomes[1]!.text).toMatch(/Type 'string' is not assignable to type 'number'/);
    expect(fromBlob.outcomes[2]).toEqual({ kind: 'ok', text: '42' });
    expect(fromBlob.outcomes[3]).toEqual({ kind: 'ok', text: '6' });
    expect(fromBlob.outcomes).toEqual(fresh.outcomes);
  }, 120_000);

  test('a blob whose program read a file changed since is not used, and is deleted', async () => {
    const { project, declarations } = projectWithGlobal();
    const target = await built(project);
    const cells = ['const n: number = 1 as unknown as typeof probeGlobal;\ntypeof n'];
    const before = probe(project, target.path, cells);
    expect(before.built).toBe(true);
    expect(before.outcomes[0]).toEqual({ kind: 'ok', text: "'number'" });

    writeFileSync(declarations, 'declare const probeGlobal: { changed: true };\n');
    // Code that runs before the check and names another blob in process.execArgv does not get that file deleted.
    const decoy = path.join(scratch, `${'0'.repeat(32)}.blob`);
    writeFileSync(decoy, 'not a blob');
    const after = probe(project, target.path, cells, -1, `process.execArgv.splice(0, Infinity, '--snapshot-blob', ${JSON.stringify(decoy)});`);
    expect(existsSync(decoy)).toBe(true);
    expect(after.built).toBe(false);
    expect(after.outcomes[0]!.kind).toBe('error');
    expect(after.outcomes[0]!.text).toMatch(/Type '\{ changed: true; \}' is not assignable to type 'number'/);
    expect(existsSync(target.path)).toBe(false);
    expect(readyCompilerSnapshot(target)).toBeUndefined();
  }, 120_000);

  test('a file its program read that changes before the watchers open is still seen', async () => {
    const { project, declarations } = projectWithGlobal();
    const target = await built(project);
    // The watchers open a little after the first conversion; the second cell changes the file before that.
    const run = probe(project, target.path, [
      'const a: number = 1 as unknown as typeof probeGlobal;\ntypeof a',
      `require("node:fs").writeFileSync(${JSON.stringify(declarations)}, "declare const probeGlobal: { changed: true };\\n");`,
      'const b: number = 1 as unknown as typeof probeGlobal;',
    ], 2);
    expect(run.built).toBe(true);
    expect(run.outcomes[0]).toEqual({ kind: 'ok', text: "'number'" });
    expect(run.outcomes[1]!.kind).toBe('ok');
    expect(run.outcomes[2]!.kind).toBe('error');
    expect(run.outcomes[2]!.text).toMatch(/Type '\{ changed: true; \}' is not assignable to type 'number'/);
  }, 120_000);

  test('a kernel process that dies on its blob before taking messages deletes it, so the next starts without', async () => {
    const dir = path.join(scratch, 'damaged');
    const target = compilerSnapshotTarget(root, kernelNodeFlags(), { ...env, NIGHTHAWK_COMPILER_SNAPSHOT_DIR: dir })!;
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    writeFileSync(target.blob, Buffer.alloc(4096, 7), { mode: 0o600 });
    const saved = process.env['NIGHTHAWK_COMPILER_SNAPSHOT_DIR'];
    process.env['NIGHTHAWK_COMPILER_SNAPSHOT_DIR'] = dir;
    try {
      const kernel = new KernelProcess({ cwd: root, eager: true });
      expect(kernel.child.spawnargs).toContain(target.blob);
      await expect(kernel.accepting).rejects.toThrow(/exited/);
      expect(existsSync(target.blob)).toBe(false);
    } finally {
      if (saved === undefined) delete process.env['NIGHTHAWK_COMPILER_SNAPSHOT_DIR'];
      else process.env['NIGHTHAWK_COMPILER_SNAPSHOT_DIR'] = saved;
    }
  }, 60_000);

  test('a blob or a directory other users can write is never used', async () => {
    const target = await built(root);
    chmodSync(target.path, 0o666);
    expect(readyCompilerSnapshot(target)).toBeUndefined();
    chmodSync(target.path, 0o600);
    expect(readyCompilerSnapshot(target)).toBe(target.path);
    const shared = path.join(scratch, 'shared');
    mkdirSync(shared, { mode: 0o777 });
    chmodSync(shared, 0o777);
    expect(compilerSnapshotTarget(root, kernelNodeFlags(), { ...env, NIGHTHAWK_COMPILER_SNAPSHOT_DIR: shared })).toBeUndefined();
    expect(compilerSnapshotTarget(root, kernelNodeFlags(), { ...env, NIGHTHAWK_COMPILER_SNAPSHOT_DIR: 'off' })).toBeUndefined();
  }, 120_000);
});

describe('the server', () => {
  const spawnArgs = (fx: Awaited<ReturnType<typeof startKernelServer>>, id: string): string[] =>
    (fx.server.kernels.get(id) as unknown as { process: { child: { spawnargs: string[] } } }).process.child.spawnargs;
  async function untilReady(target: CompilerSnapshotTarget): Promise<void> {
    const deadline = Date.now() + 60_000;
    while (!readyCompilerSnapshot(target) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 250));
    expect(readyCompilerSnapshot(target)).toBe(target.blob);
  }
  async function withSnapshotDir<T>(dir: string, body: () => Promise<T>): Promise<T> {
    const saved = process.env['NIGHTHAWK_COMPILER_SNAPSHOT_DIR'];
    process.env['NIGHTHAWK_COMPILER_SNAPSHOT_DIR'] = dir;
    try {
      return await body();
    } finally {
      if (saved === undefined) delete process.env['NIGHTHAWK_COMPILER_SNAPSHOT_DIR'];
      else process.env['NIGHTHAWK_COMPILER_SNAPSHOT_DIR'] = saved;
    }
  }

  test('without a pool, builds the snapshot ahead, and a kernel a client waits for starts from it', async () => {
    await withSnapshotDir(path.join(scratch, 'no-pool'), async () => {
      const fx = await startKernelServer({ spareKernels: 0, kernelCwd: root, hostModule: sessionHost });
      try {
        await untilReady(compilerSnapshotTarget(root, kernelNodeFlags())!);
        const kernel = await fx.kernels.startNew();
        const args = spawnArgs(fx, kernel.id);
        expect(args[args.indexOf('--snapshot-blob') + 1]).toBe(compilerSnapshotTarget(root, kernelNodeFlags())!.blob);
        const run = await runCell(kernel, 'import * as nh from "nighthawk-ts";\ntypeof nh.Session');
        expect(run.result?.['text/plain']).toBe("'function'");
        expect((await runCell(kernel, 'const bad: number = "x";')).error?.evalue ?? '').toMatch(/not assignable/);
        // Its interrupt watchdog thread runs as in any kernel: a spinning cell is stopped.
        const spinning = runCell(kernel, 'while (true) {}');
        setTimeout(() => void kernel.interrupt(), 500);
        expect((await spinning).error?.ename).toBe('KeyboardInterrupt');
        expect((await runCell(kernel, '6 * 7')).result?.['text/plain']).toBe('42');
      } finally {
        await fx.close();
      }
    });
  }, 180_000);

  test('with a pool, spares never start from a snapshot; a kernel that found no spare and no blob has one built for the next', async () => {
    await withSnapshotDir(path.join(scratch, 'pool'), async () => {
      const fx = await startKernelServer({ spareKernels: 1, kernelCwd: root, hostModule: sessionHost });
      const target = compilerSnapshotTarget(root, kernelNodeFlags())!;
      try {
        const spare = await fx.kernels.startNew();
        const cold = await fx.kernels.startNew();
        expect(spawnArgs(fx, spare.id)).not.toContain('--snapshot-blob');
        expect(spawnArgs(fx, cold.id)).not.toContain('--snapshot-blob');
        expect(readyCompilerSnapshot(target)).toBeUndefined();
        expect((await runCell(cold, '1 + 1')).result?.['text/plain']).toBe('2');
        await untilReady(target);
      } finally {
        await fx.close();
      }
    });
  }, 180_000);
});
