/** Issue 19.7: the notebook server's workspace is apart from the shipped demos, which are copied in once. */
import { existsSync, promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ContentsStore, prepareWorkspace } from '../../kernel/src/server/api/index.js';

describe('notebook workspace', () => {
  it('copies the demos on first start only, never overwrites, and hides its marker from the file list', async () => {
    const root = await fs.mkdtemp(path.join(os.tmpdir(), 'nh-workspace-'));
    const demos = path.join(root, 'notebooks');
    const workspace = path.join(root, 'workspace');
    await fs.mkdir(demos);
    await fs.writeFile(path.join(demos, 'demo-a.ipynb'), '{"a":1}');
    await fs.writeFile(path.join(demos, 'demo-b.ipynb'), '{"b":1}');
    await fs.writeFile(path.join(demos, 'README.md'), 'not a notebook');

    expect((await prepareWorkspace(workspace, demos)).copied).toEqual(['demo-a.ipynb', 'demo-b.ipynb']);
    expect(existsSync(path.join(workspace, 'README.md'))).toBe(false);

    // The operator edits one demo and deletes the other; a restart changes neither.
    await fs.writeFile(path.join(workspace, 'demo-a.ipynb'), '{"edited":true}');
    await fs.rm(path.join(workspace, 'demo-b.ipynb'));
    expect((await prepareWorkspace(workspace, demos)).copied).toEqual([]);
    expect(await fs.readFile(path.join(workspace, 'demo-a.ipynb'), 'utf8')).toBe('{"edited":true}');
    expect(existsSync(path.join(workspace, 'demo-b.ipynb'))).toBe(false);
    // The shipped demos are untouched, and a new notebook lands in the workspace only.
    expect(await fs.readFile(path.join(demos, 'demo-a.ipynb'), 'utf8')).toBe('{"a":1}');

    const listing = await new ContentsStore(workspace).get('', { content: true });
    expect((listing.content as Array<{ name: string }>).map((c) => c.name)).toEqual(['demo-a.ipynb']);
    await fs.rm(root, { recursive: true, force: true });
  });

  it('an explicit --notebook-dir that is the demos folder copies nothing', async () => {
    const root = await fs.mkdtemp(path.join(os.tmpdir(), 'nh-workspace-'));
    await fs.writeFile(path.join(root, 'demo.ipynb'), '{}');
    expect((await prepareWorkspace(root, root)).copied).toEqual([]);
    await fs.rm(root, { recursive: true, force: true });
  });
});
