import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { ContentsManager, KernelSpecManager, SessionManager, startKernelServer, type KernelServerFixture } from '../support/kernel-server.js';
import { runCell } from '../support/kernel-client.js';

let fx: KernelServerFixture;
let contents: ContentsManager;

const notebook = (source: string) => ({
  nbformat: 4,
  nbformat_minor: 5,
  metadata: { kernelspec: { name: 'nighthawk', display_name: 'Nighthawk TS', language: 'typescript' } },
  cells: [
    { id: 'c1', cell_type: 'code', metadata: {}, source, execution_count: 1, outputs: [{ output_type: 'execute_result', execution_count: 1, data: { 'text/plain': '2' }, metadata: {} }] },
    { id: 'm1', cell_type: 'markdown', metadata: {}, source: '# Title' },
  ],
});

beforeAll(async () => {
  fx = await startKernelServer({ spareKernels: 0 });
  contents = new ContentsManager({ serverSettings: fx.settings });
}, 60_000);

afterAll(async () => {
  contents?.dispose();
  await fx?.close();
});

describe('contents API', () => {
  test('a saved notebook reloads with the same cells and outputs', async () => {
    const saved = await contents.save('first.ipynb', { type: 'notebook', format: 'json', content: notebook('1+1') });
    expect(saved).toMatchObject({ name: 'first.ipynb', path: 'first.ipynb', type: 'notebook' });
    const loaded = await contents.get('first.ipynb', { content: true });
    expect(loaded.content).toEqual(notebook('1+1'));
    expect(JSON.parse(readFileSync(path.join(fx.notebookDir, 'first.ipynb'), 'utf8')).cells[0].source).toBe('1+1');
  });

  test('a file that is not a valid notebook is refused (422) naming where it is wrong', async () => {
    const bad = notebook('1+1') as { cells: Array<Record<string, unknown>> };
    bad.cells[1] = { ...bad.cells[1], cell_type: 'weird' };
    writeFileSync(path.join(fx.notebookDir, 'odd.ipynb'), JSON.stringify(bad));
    await expect(contents.get('odd.ipynb', { content: true })).rejects.toThrow(/odd\.ipynb is not a valid nbformat 4\.5 notebook: cells\.1\.cell_type: /);
    writeFileSync(path.join(fx.notebookDir, 'text.ipynb'), 'not json');
    await expect(contents.get('text.ipynb', { content: true })).rejects.toThrow(/text\.ipynb is not valid JSON/);
  });

  test('the directory listing shows notebooks and folders only', async () => {
    writeFileSync(path.join(fx.notebookDir, 'notes.txt'), 'not a notebook');
    writeFileSync(path.join(fx.notebookDir, '.hidden.ipynb'), '{}');
    mkdirSync(path.join(fx.notebookDir, 'folder'), { recursive: true });
    await contents.save('listed.ipynb', { type: 'notebook', format: 'json', content: notebook('"x"') });
    const listing = await contents.get('', { content: true });
    const names = (listing.content as Array<{ name: string }>).map((m) => m.name).sort();
    expect(names).toContain('listed.ipynb');
    expect(names).toContain('folder');
    expect(names).not.toContain('notes.txt');
    expect(names).not.toContain('.hidden.ipynb');
  });

  test('new untitled, rename, checkpoints and delete work on notebooks', async () => {
    const created = await contents.newUntitled({ path: '', type: 'notebook', ext: '.ipynb' });
    expect(created.name).toMatch(/^Untitled\d*\.ipynb$/);
    const renamed = await contents.rename(created.path, 'renamed.ipynb');
    expect(renamed.path).toBe('renamed.ipynb');
    expect(existsSync(path.join(fx.notebookDir, created.path))).toBe(false);
    expect(await contents.listCheckpoints('renamed.ipynb')).toEqual([]);
    const checkpoint = await contents.createCheckpoint('renamed.ipynb');
    expect(checkpoint.id).toBe('checkpoint');
    await contents.save('renamed.ipynb', { type: 'notebook', format: 'json', content: notebook('"changed"') });
    await contents.restoreCheckpoint('renamed.ipynb', checkpoint.id);
    const restored = await contents.get('renamed.ipynb', { content: true });
    expect((restored.content as { cells: unknown[] }).cells).toEqual([]);
    await contents.deleteCheckpoint('renamed.ipynb', checkpoint.id);
    await contents.delete('renamed.ipynb');
    await expect(contents.get('renamed.ipynb')).rejects.toThrow();
  });

  test('checkpoints are never read, restored or deleted through a symlink, and only a valid notebook is restored', async () => {
    const outside = path.join(fx.sandbox, 'outside-checkpoints');
    mkdirSync(outside, { recursive: true });
    const planted = path.join(outside, 'linked-checkpoint.ipynb');
    writeFileSync(planted, 'OUTSIDE FILE');
    // The checkpoint directory itself is a symlink out of the notebooks directory.
    mkdirSync(path.join(fx.notebookDir, 'linked'), { recursive: true });
    await contents.save('linked/linked.ipynb', { type: 'notebook', format: 'json', content: notebook('"mine"') });
    symlinkSync(outside, path.join(fx.notebookDir, 'linked', '.ipynb_checkpoints'));
    await expect(contents.listCheckpoints('linked/linked.ipynb')).rejects.toThrow(/403|plain directory/);
    await expect(contents.restoreCheckpoint('linked/linked.ipynb', 'checkpoint')).rejects.toThrow(/403|plain directory/);
    await expect(contents.deleteCheckpoint('linked/linked.ipynb', 'checkpoint')).rejects.toThrow(/403|plain directory/);
    expect(readFileSync(planted, 'utf8')).toBe('OUTSIDE FILE');
    expect(JSON.parse(readFileSync(path.join(fx.notebookDir, 'linked', 'linked.ipynb'), 'utf8')).cells[0].source).toBe('"mine"');

    // A real checkpoint directory holding a symlinked checkpoint file.
    await contents.save('filelink.ipynb', { type: 'notebook', format: 'json', content: notebook('"mine"') });
    mkdirSync(path.join(fx.notebookDir, '.ipynb_checkpoints'), { recursive: true });
    symlinkSync(planted, path.join(fx.notebookDir, '.ipynb_checkpoints', 'filelink-checkpoint.ipynb'));
    expect(await contents.listCheckpoints('filelink.ipynb')).toEqual([]);
    await expect(contents.restoreCheckpoint('filelink.ipynb', 'checkpoint')).rejects.toThrow(/404|No checkpoint/);
    await expect(contents.deleteCheckpoint('filelink.ipynb', 'checkpoint')).rejects.toThrow(/404|No checkpoint/);
    expect(readFileSync(planted, 'utf8')).toBe('OUTSIDE FILE');

    // A checkpoint file that is not a notebook is not restored over one.
    await contents.save('broken.ipynb', { type: 'notebook', format: 'json', content: notebook('"mine"') });
    writeFileSync(path.join(fx.notebookDir, '.ipynb_checkpoints', 'broken-checkpoint.ipynb'), 'not a notebook');
    await expect(contents.restoreCheckpoint('broken.ipynb', 'checkpoint')).rejects.toThrow(/422|not valid JSON/);
    expect(JSON.parse(readFileSync(path.join(fx.notebookDir, 'broken.ipynb'), 'utf8')).cells[0].source).toBe('"mine"');
  });

  test('a notebook that is not nbformat 4.5 is refused and nothing is written', async () => {
    const bad = { nbformat: 4, nbformat_minor: 4, metadata: {}, cells: [{ cell_type: 'code', source: 'x' }] };
    await expect(contents.save('bad.ipynb', { type: 'notebook', format: 'json', content: bad })).rejects.toThrow(/nbformat/);
    expect(existsSync(path.join(fx.notebookDir, 'bad.ipynb'))).toBe(false);
  });

  test('paths leading outside the notebooks directory are refused', async () => {
    writeFileSync(path.join(fx.sandbox, 'secret.ipynb'), JSON.stringify(notebook('"secret"')));
    symlinkSync(path.join(fx.sandbox, 'secret.ipynb'), path.join(fx.notebookDir, 'link.ipynb'));
    symlinkSync(fx.sandbox, path.join(fx.notebookDir, 'escape'));
    for (const p of ['../secret.ipynb', 'folder/../../secret.ipynb', 'link.ipynb', 'escape/secret.ipynb', '%2e%2e/secret.ipynb']) {
      await expect(contents.get(p, { content: true }), p).rejects.toThrow();
    }
    const url = (p: string) => `${fx.server.baseUrl}api/contents/${p}?token=${fx.server.token}`;
    for (const raw of ['..%2Fsecret.ipynb', '%2e%2e%2fsecret.ipynb', '%2Fetc%2Fpasswd', 'escape%2Fsecret.ipynb']) {
      const response = await fetch(url(raw));
      expect(response.status, raw).toBeGreaterThanOrEqual(400);
    }
    expect(readFileSync(path.join(fx.sandbox, 'secret.ipynb'), 'utf8')).toContain('secret');
  });
});

describe('sessions and kernel specs', () => {
  test('a session binds a notebook path to a running kernel until it is shut down', async () => {
    const specs = new KernelSpecManager({ serverSettings: fx.settings });
    await specs.ready;
    expect(specs.specs?.default).toBe('nighthawk');
    const sessions = new SessionManager({ kernelManager: fx.kernels, serverSettings: fx.settings });
    const session = await sessions.startNew({ path: 'nb.ipynb', type: 'notebook', name: 'nb.ipynb', kernel: { name: 'nighthawk' } });
    const run = await runCell(session.kernel!, '40 + 2');
    expect(run.result?.['text/plain']).toBe('42');
    const listed = await (await fetch(`${fx.server.baseUrl}api/sessions?token=${fx.server.token}`)).json();
    expect(listed).toEqual([expect.objectContaining({ id: session.id, path: 'nb.ipynb', kernel: expect.objectContaining({ id: session.kernel!.id }) })]);
    await session.shutdown();
    const after = await (await fetch(`${fx.server.baseUrl}api/sessions?token=${fx.server.token}`)).json();
    expect(after).toEqual([]);
    expect(fx.server.kernels.list()).toHaveLength(0);
    sessions.dispose();
    specs.dispose();
  });

  test('two session POSTs for one path while its kernel starts share one session; the answers say which started it', async () => {
    const post = () =>
      fetch(`${fx.server.baseUrl}api/sessions?token=${fx.server.token}`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ path: 'twice.ipynb', type: 'notebook', name: 'twice.ipynb', kernel: { name: 'nighthawk' } }),
      });
    // Sent together: the second arrives while the first one's kernel is still starting (the server has no pool).
    const answers = await Promise.all([post(), post()]);
    expect(answers.map((a) => a.status)).toEqual([201, 201]);
    const models = (await Promise.all(answers.map((a) => a.json()))) as Array<{ id: string; kernel: { id: string } }>;
    expect(models[1]!.id).toBe(models[0]!.id);
    expect(models[1]!.kernel.id).toBe(models[0]!.kernel.id);
    expect(answers.map((a) => a.headers.get('Nighthawk-Session')).sort()).toEqual(['created', 'found']);
    expect(fx.server.kernels.list()).toHaveLength(1);
    const again = await post();
    expect(again.headers.get('Nighthawk-Session')).toBe('found');
    expect(((await again.json()) as { id: string }).id).toBe(models[0]!.id);
    const del = await fetch(`${fx.server.baseUrl}api/sessions/${models[0]!.id}?token=${fx.server.token}`, { method: 'DELETE' });
    expect(del.status).toBe(204);
    expect(fx.server.kernels.list()).toHaveLength(0);
  });
});
