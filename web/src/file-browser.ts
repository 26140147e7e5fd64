/**
 * The sidebar's file browser over the Contents API: folders to walk into, notebooks to open, and the
 * file operations a Jupyter user expects (new notebook, new folder, upload .ipynb, rename, delete).
 */
import { askText, choose, toast } from './chrome.js';
import { button, h } from './dom.js';
import type { ContentsApi } from './services-loader.js';

interface Item {
  path: string;
  name: string;
  type: string;
}

export interface FileBrowserHost {
  open(path: string): void;
  /** The notebook open now (highlighted; a deleted open notebook is closed by the host). */
  current(): string | undefined;
  deleted(path: string): void;
}

export class FileBrowser {
  readonly list = h('ul', { class: 'file-list', 'aria-label': 'notebooks' });
  readonly crumbs = h('div', { class: 'file-crumbs', 'aria-label': 'folder' });
  private readonly upload = h('input', { type: 'file', accept: '.ipynb,application/x-ipynb+json', multiple: true, hidden: true, 'aria-label': 'upload notebooks' });
  /** The folder shown, '' for the notebooks directory itself. */
  cwd = '';

  constructor(private readonly contents: ContentsApi, private readonly host: FileBrowserHost) {
    this.upload.addEventListener('change', () => void this.uploadFiles());
  }

  /** Buttons for the sidebar head. */
  actions(): HTMLElement[] {
    return [
      button('New folder', () => void this.newFolder(), { class: 'btn btn-small', text: '+ Folder' }),
      button('Upload notebook', () => this.upload.click(), { class: 'btn btn-small', text: 'Upload' }),
      this.upload,
    ];
  }

  /** Lists the current folder; returns the notebook paths in it. */
  async refresh(): Promise<string[]> {
    const listing = await this.contents.get(this.cwd, { content: true, type: 'directory' });
    const items = ((Array.isArray(listing.content) ? listing.content : []) as Item[]).filter((i) => i.type === 'directory' || i.type === 'notebook' || i.name.endsWith('.ipynb'));
    const folders = items.filter((i) => i.type === 'directory').sort((a, b) => a.name.localeCompare(b.name));
    const notebooks = items.filter((i) => i.type !== 'directory').sort((a, b) => a.path.localeCompare(b.path));
    const current = this.host.current();
    const row = (item: Item, main: HTMLElement): HTMLElement =>
      h('li', { class: 'file-row' }, main, button(`Delete ${item.name}`, () => void this.remove(item), { class: 'file-delete icon-btn', text: '✕' }));
    this.list.replaceChildren(
      ...folders.map((f) => row(f, button(`Open folder ${f.name}`, () => void this.enter(f.path), { class: 'folder', text: `${f.name}/` }))),
      ...notebooks.map((n) => row(n, button(n.path, () => this.host.open(n.path), { class: `file${n.path === current ? ' current' : ''}`, 'aria-current': n.path === current ? 'page' : undefined, text: n.name }))),
    );
    const parts = this.cwd ? this.cwd.split('/') : [];
    this.crumbs.replaceChildren(
      button('Notebooks folder', () => void this.enter(''), { class: 'crumb', text: '⌂' }),
      ...parts.flatMap((p, i) => ['/', button(`Open folder ${p}`, () => void this.enter(parts.slice(0, i + 1).join('/')), { class: 'crumb', text: p })]));
    this.crumbs.hidden = parts.length === 0;
    return notebooks.map((n) => n.path);
  }

  async enter(dir: string): Promise<void> {
    this.cwd = dir;
    await this.refresh().catch((err: unknown) => toast(`Cannot list ${dir || 'notebooks'}: ${String(err)}`));
  }

  private join(name: string): string {
    return this.cwd ? `${this.cwd}/${name}` : name;
  }

  private async newFolder(): Promise<void> {
    const name = await askText('New folder', 'Folder name', 'Untitled Folder');
    if (!name) return;
    if (name.includes('/') || name.startsWith('.')) return toast('A folder name cannot contain "/" or start with "."');
    try {
      await this.contents.save(this.join(name), { type: 'directory' });
      await this.refresh();
    } catch (err) {
      toast(`Cannot create the folder: ${String(err)}`);
    }
  }

  private async remove(item: Item): Promise<void> {
    const what = item.type === 'directory' ? 'folder' : 'notebook';
    const ok = await choose(`Delete ${what}?`, `${item.path} will be deleted from disk.${item.type === 'directory' ? ' Only empty folders can be deleted.' : ''}`, [{ value: 'delete', label: 'Delete', primary: true }, { value: 'keep', label: 'Cancel' }]);
    if (ok !== 'delete') return;
    try {
      await this.contents.delete(item.path);
      this.host.deleted(item.path);
      await this.refresh();
    } catch (err) {
      toast(`Cannot delete ${item.path}: ${String(err)}`);
    }
  }

  /** Uploads .ipynb files into the current folder; the server validates each as nbformat 4.5. */
  private async uploadFiles(): Promise<void> {
    const files = [...(this.upload.files ?? [])];
    this.upload.value = '';
    for (const file of files) {
      try {
        if (!file.name.endsWith('.ipynb')) throw new Error('only .ipynb notebooks can be uploaded');
        const content = JSON.parse(await file.text()) as unknown;
        await this.contents.save(this.join(file.name), { type: 'notebook', format: 'json', content: content as never });
        toast(`Uploaded ${file.name}`);
      } catch (err) {
        toast(`Cannot upload ${file.name}: ${err instanceof Error ? err.message : String(err)}`);
      }
    }
    await this.refresh().catch(() => {});
  }
}
