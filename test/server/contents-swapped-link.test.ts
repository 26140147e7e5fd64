/**
 * A notebook path is checked with lstat (a symlink is refused), then read. A link swapped in between, by someone who
 * can write the notebooks directory, was followed by the read: `/etc/passwd` or another user's file would be served.
 * The read (and a checkpoint's copy) now opens the file without following links: a link there is refused (403).
 */
import { mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ContentsStore } from '../../kernel/src/server/index.js';

const notebook = JSON.stringify({ nbformat: 4, nbformat_minor: 5, metadata: {}, cells: [] });

describe('a notebook replaced by a symbolic link after its check', () => {
  it('is refused when read (403); a plain file reads as before', async () => {
    const root = mkdtempSync(path.join(tmpdir(), 'nh-swap-'));
    const outside = mkdtempSync(path.join(tmpdir(), 'nh-outside-'));
    writeFileSync(path.join(outside, 'secret.ipynb'), notebook);
    writeFileSync(path.join(root, 'a.ipynb'), notebook);
    const store = new ContentsStore(root) as unknown as { readNotebook(api: string, abs: string): Promise<unknown>; createCheckpoint(api: string): Promise<unknown> };
    await expect(store.readNotebook('a.ipynb', path.join(root, 'a.ipynb'))).resolves.toMatchObject({ nbformat: 4 });
    // The swap, between the check and the read: the read itself meets the link.
    rmSync(path.join(root, 'a.ipynb'));
    symlinkSync(path.join(outside, 'secret.ipynb'), path.join(root, 'a.ipynb'));
    await expect(store.readNotebook('a.ipynb', path.join(root, 'a.ipynb'))).rejects.toMatchObject({ status: 403 });
  });
});
