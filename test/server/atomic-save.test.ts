import { fork } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { ContentsStore, startServer } from '../../kernel/src/server/index.js';
import { NotebookSchema, emptyNotebook } from '../../shared/index.js';
import { ensureKernelBuilt, root } from '../zmq/zmq-fixture.js';

let sandbox: string;

beforeAll(() => {
  ensureKernelBuilt();
  sandbox = mkdtempSync(path.join(tmpdir(), 'nighthawk-save-'));
}, 120_000);

afterAll(() => rmSync(sandbox, { recursive: true, force: true }));

/** Every file (not directory) under `dir`, relative. */
function filesUnder(dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...filesUnder(full).map((f) => path.join(entry.name, f)));
    else out.push(entry.name);
  }
  return out.sort();
}

/** A large notebook whose every cell says `marker`, so a torn write cannot pass for a whole one. */
function bigNotebook(marker: string): unknown {
  const nb = emptyNotebook() as { cells: unknown[] };
  const source = `// ${marker}\n` + `const line = "${marker}";\n`.repeat(2_000);
  for (let i = 0; i < 60; i++) nb.cells.push({ cell_type: 'code', id: `c${i}`, source, metadata: {}, outputs: [], execution_count: null });
  return nb;
}

// The saving process: the built ContentsStore (what `npm start` runs) saving A and B alternately, forever.
const SAVER = `
import { ContentsStore } from ${JSON.stringify(pathToFileURL(path.join(root, 'dist', 'kernel', 'src', 'server', 'api', 'contents.js')).href)};
import { readFileSync } from 'node:fs';
const [dir, aFile, bFile] = JSON.parse(process.argv[2]);
const a = JSON.parse(readFileSync(aFile, 'utf8'));
const b = JSON.parse(readFileSync(bFile, 'utf8'));
const store = new ContentsStore(dir);
process.send('saving');
for (let i = 0; ; i++) await store.save('sub/work.ipynb', { type: 'notebook', content: i % 2 ? b : a });
`;

describe('atomic saves', () => {
  test('20 saves killed with SIGKILL mid-write leave a whole notebook and, after restart, no temporary file', async () => {
    const saver = path.join(sandbox, 'saver.mjs');
    writeFileSync(saver, SAVER);
    const a = NotebookSchema.parse(bigNotebook('version-A'));
    const b = NotebookSchema.parse(bigNotebook('version-B'));
    const dir = path.join(sandbox, 'kill');
    mkdirSync(path.join(dir, 'sub'), { recursive: true });
    writeFileSync(path.join(sandbox, 'a.json'), JSON.stringify(a));
    writeFileSync(path.join(sandbox, 'b.json'), JSON.stringify(b));
    let tempsBeforeRestart = 0;
    for (let trial = 0; trial < 20; trial++) {
      const child = fork(saver, [JSON.stringify([dir, path.join(sandbox, 'a.json'), path.join(sandbox, 'b.json')])], { stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
      await new Promise<void>((resolve) => child.once('message', () => resolve()));
      await new Promise((resolve) => setTimeout(resolve, 40 + ((trial * 37) % 160)));
      child.kill('SIGKILL');
      await new Promise((resolve) => child.once('exit', resolve));
      tempsBeforeRestart += filesUnder(dir).filter((f) => f !== path.join('sub', 'work.ipynb')).length;
      // Restart: the server's start cleans what a killed save left behind.
      const server = await startServer({ notebookDir: dir, port: 0, spareKernels: 0, log: () => {} });
      await server.close();
      expect(filesUnder(dir), `trial ${trial}`).toEqual(existsSync(path.join(dir, 'sub', 'work.ipynb')) ? [path.join('sub', 'work.ipynb')] : []);
      if (existsSync(path.join(dir, 'sub', 'work.ipynb'))) {
        const saved = JSON.parse(readFileSync(path.join(dir, 'sub', 'work.ipynb'), 'utf8')) as unknown;
        expect([a, b], `trial ${trial}: the notebook is one of the two versions, whole`).toContainEqual(saved);
      }
    }
    // The kills did land mid-save: temporary files were there before the restarts removed them.
    expect(tempsBeforeRestart).toBeGreaterThan(0);
  }, 180_000);

  test('a directory swapped for a symlink during saves never lets a file (temporary or final) land outside the root', async () => {
    const dir = path.join(sandbox, 'race', 'notebooks');
    const outside = path.join(sandbox, 'race', 'outside');
    mkdirSync(path.join(dir, 'sub'), { recursive: true });
    mkdirSync(outside, { recursive: true });
    symlinkSync(outside, path.join(dir, 'sub-link'));
    const store = new ContentsStore(dir);
    const content = emptyNotebook();
    let stop = false;
    let swaps = 0;
    const swapper = (async () => {
      while (!stop) {
        // Atomic swaps: `sub` is a real directory, then a symlink to `outside`, then the directory again.
        renameSync(path.join(dir, 'sub'), path.join(dir, 'sub-real'));
        renameSync(path.join(dir, 'sub-link'), path.join(dir, 'sub'));
        await new Promise((resolve) => setImmediate(resolve));
        renameSync(path.join(dir, 'sub'), path.join(dir, 'sub-link'));
        renameSync(path.join(dir, 'sub-real'), path.join(dir, 'sub'));
        swaps++;
        await new Promise((resolve) => setImmediate(resolve));
      }
    })();
    let saved = 0;
    let refused = 0;
    const deadline = Date.now() + 4_000;
    while (Date.now() < deadline) {
      await Promise.all(
        Array.from({ length: 8 }, (_, i) =>
          store.save(`sub/n${i}.ipynb`, { type: 'notebook', content }).then(
            () => saved++,
            () => refused++,
          ),
        ),
      );
    }
    stop = true;
    await swapper;
    expect(swaps).toBeGreaterThan(50);
    expect(saved + refused).toBeGreaterThan(100);
    expect(readdirSync(outside)).toEqual([]);
    // Saves refused mid-way (the directory turned into a link) removed their temporary files.
    expect(filesUnder(dir).filter((f) => !/^sub[/\\]n\d\.ipynb$/.test(f) && f !== 'sub-link')).toEqual([]);
  }, 30_000);
});
