/**
 * The notebooks directory behind /api/contents. Only directories and `.ipynb` files inside the root are
 * visible; every API path is checked segment by segment (no `..`, `.`, dot-files, backslashes, NUL) and then
 * by real path, so symlinks cannot lead outside. Saves are validated as nbformat 4.5 and written atomically.
 */
import { randomUUID } from 'node:crypto';
import { constants, promises as fs, type Stats } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import path from 'node:path';
import type { CheckpointModel, ContentsModel, Notebook } from '../../../../shared/index.js';
import { NotebookSchema, emptyNotebook, multilineText, summarizeIssues } from '../../../../shared/index.js';
import { RequestRefusedError } from '../kernel/index.js';
import { MAX_JSON_DEPTH, jsonDepthExceeds, parseBoundedJson } from './json-limits.js';
import { redactValue, registerEnvSecret } from '../../core/index.js';

const refuse = (status: number, message: string): never => {
  throw new RequestRefusedError({ status, message });
};

const CHECKPOINT_DIR = '.ipynb_checkpoints';
const CHECKPOINT_ID = 'checkpoint';

export class ContentsStore {
  private realRoot: string | undefined;

  constructor(readonly root: string) {}

  /** Validates an API path (already URL-decoded) and returns its normalised form ('' for the root). */
  static normalize(apiPath: string): string {
    if (apiPath.length > 4096) refuse(400, 'Path too long');
    const segments = apiPath.split('/').filter((s, i, all) => !(s === '' && (i === 0 || i === all.length - 1)));
    for (const segment of segments) {
      if (segment === '' || segment === '.' || segment === '..' || segment.startsWith('.')) refuse(400, `Invalid path segment '${segment.slice(0, 40)}'`);
      if (/[\\\0:]/.test(segment) || /[\u0000-\u001f]/.test(segment)) refuse(400, 'Invalid character in path');
    }
    return segments.join('/');
  }

  /** Absolute path of an API path after the lexical and real-path checks. */
  private async resolve(apiPath: string, options: { mustExist: boolean }): Promise<{ api: string; abs: string; stat: Stats | undefined }> {
    const api = ContentsStore.normalize(apiPath);
    this.realRoot ??= await fs.realpath(this.root);
    const abs = path.join(this.realRoot, ...api.split('/').filter(Boolean));
    if (abs !== this.realRoot && !abs.startsWith(this.realRoot + path.sep)) refuse(400, 'Path outside the notebooks directory');
    const stat = await fs.lstat(abs).catch(() => undefined);
    if (stat?.isSymbolicLink()) refuse(403, 'Symbolic links are not served');
    if (!stat && options.mustExist) refuse(404, `No such file or directory: ${api}`);
    // The parent chain may contain a symlink even when the leaf does not.
    const parentReal = await fs.realpath(path.dirname(abs)).catch(() => undefined);
    if (abs !== this.realRoot && (parentReal === undefined || (parentReal !== this.realRoot && !parentReal.startsWith(this.realRoot + path.sep)))) {
      refuse(stat ? 403 : 404, 'Parent directory is outside the notebooks directory or missing');
    }
    if (stat && !stat.isDirectory() && !(stat.isFile() && api.endsWith('.ipynb'))) refuse(404, `Not a notebook: ${api}`);
    return { api, abs, stat };
  }

  private model(api: string, stat: Stats, content: unknown): ContentsModel {
    const isDir = stat.isDirectory();
    return {
      name: api.split('/').pop() ?? '',
      path: api,
      type: isDir ? 'directory' : 'notebook',
      writable: true,
      created: stat.birthtime.toISOString(),
      last_modified: stat.mtime.toISOString(),
      mimetype: null,
      content,
      format: content === null ? null : 'json',
      ...(isDir ? {} : { size: stat.size }),
    };
  }

  async get(apiPath: string, options: { content: boolean }): Promise<ContentsModel> {
    const { api, abs, stat } = await this.resolve(apiPath, { mustExist: true });
    if (stat!.isDirectory()) {
      if (!options.content) return this.model(api, stat!, null);
      const children: ContentsModel[] = [];
      for (const entry of await fs.readdir(abs, { withFileTypes: true })) {
        if (entry.name.startsWith('.')) continue;
        if (!entry.isDirectory() && !(entry.isFile() && entry.name.endsWith('.ipynb'))) continue;
        const childStat = await fs.lstat(path.join(abs, entry.name));
        children.push(this.model(api ? `${api}/${entry.name}` : entry.name, childStat, null));
      }
      return this.model(api, stat!, children);
    }
    return this.model(api, stat!, options.content ? await this.readNotebook(api, abs) : null);
  }

  /** The notebook file at `abs`, parsed and validated (422 when it is not one). */
  private async readNotebook(api: string, abs: string): Promise<Notebook> {
    const text = (await readNoFollow(abs)).toString('utf8');
    const json = parseBoundedJson(text);
    if (!json.ok) refuse(422, json.reason === 'too-deep' ? `${api} is nested deeper than ${MAX_JSON_DEPTH} levels` : `${api} is not valid JSON`);
    const parsed = NotebookSchema.safeParse(json.ok ? json.value : undefined);
    if (!parsed.success) return refuse(422, `${api} is not a valid nbformat 4.5 notebook: ${summarizeIssues(parsed.error.issues)}`);
    return parsed.data;
  }

  /**
   * The source of the notebook's first code cell (see SessionRegistry: a kernel started for the notebook
   * converts it ahead), or undefined: a notebook larger than `maxBytes`, one without code, or no notebook at all.
   */
  async firstCodeCell(apiPath: string, maxBytes: number): Promise<string | undefined> {
    const { api, abs, stat } = await this.resolve(apiPath, { mustExist: true });
    if (stat!.isDirectory() || stat!.size > maxBytes) return undefined;
    const notebook = await this.readNotebook(api, abs);
    const cell = notebook.cells.find((c) => c.cell_type === 'code');
    if (!cell) return undefined;
    const source = multilineText(cell.source);
    return source.trim() === '' ? undefined : source;
  }

  async save(apiPath: string, body: { type?: string; content?: unknown }): Promise<{ model: ContentsModel; created: boolean }> {
    const { api, abs, stat } = await this.resolve(apiPath, { mustExist: false });
    if (body.type === 'directory') {
      if (!stat) await fs.mkdir(abs);
      const now = await fs.lstat(abs);
      return { model: this.model(api, now, null), created: !stat };
    }
    if (body.type !== undefined && body.type !== 'notebook') refuse(400, 'Only notebooks and directories can be saved');
    if (!api.endsWith('.ipynb')) refuse(400, 'Notebook paths must end in .ipynb');
    if (stat?.isDirectory()) refuse(400, `${api} is a directory`);
    if (jsonDepthExceeds(body.content)) refuse(400, `The notebook is nested deeper than ${MAX_JSON_DEPTH} levels`);
    // A notebook is saved without the configured provider key or other registered secrets in it.
    registerEnvSecret('OPENAI_API_KEY');
    const parsed = NotebookSchema.safeParse(redactValue(body.content));
    if (!parsed.success) refuse(400, `Not a valid nbformat 4.5 notebook: ${summarizeIssues(parsed.error.issues)}`);
    await this.writeAtomic(abs, JSON.stringify(parsed.data, null, 1) + '\n');
    return { model: this.model(api, await fs.lstat(abs), null), created: !stat };
  }

  async newUntitled(dirPath: string, body: { type?: string; copy_from?: string }): Promise<ContentsModel> {
    const { api: dir, stat } = await this.resolve(dirPath, { mustExist: true });
    if (!stat!.isDirectory()) refuse(400, `${dir} is not a directory`);
    const isDir = body.type === 'directory';
    if (body.type !== undefined && body.type !== 'notebook' && !isDir) refuse(400, 'Only notebooks and directories can be created');
    let content: unknown = emptyNotebook();
    let base = isDir ? 'Untitled Folder' : 'Untitled';
    if (body.copy_from !== undefined) {
      const source = await this.get(body.copy_from, { content: true });
      if (source.type !== 'notebook') refuse(400, 'Only notebooks can be copied');
      content = source.content;
      base = source.name.replace(/\.ipynb$/, '') + '-Copy';
    }
    for (let i = 0; i < 10_000; i++) {
      const name = `${base}${i === 0 ? '' : i}${isDir ? '' : '.ipynb'}`;
      const candidate = dir ? `${dir}/${name}` : name;
      const target = await this.resolve(candidate, { mustExist: false });
      if (target.stat) continue;
      const { model } = await this.save(candidate, isDir ? { type: 'directory' } : { type: 'notebook', content });
      return model;
    }
    return refuse(409, 'No free untitled name');
  }

  async rename(fromPath: string, toPath: string): Promise<ContentsModel> {
    const from = await this.resolve(fromPath, { mustExist: true });
    const to = await this.resolve(toPath, { mustExist: false });
    // Either would be EINVAL from rename(2), a 500: the root cannot move, nor a directory into itself.
    if (from.api === '') refuse(400, 'The notebooks directory itself cannot be renamed');
    if (to.api.startsWith(`${from.api}/`)) refuse(400, `${from.api} cannot be moved into itself`);
    if (to.stat) refuse(409, `${to.api} already exists`);
    if (from.stat!.isFile() && !to.api.endsWith('.ipynb')) refuse(400, 'Notebook paths must end in .ipynb');
    await fs.rename(from.abs, to.abs);
    return this.model(to.api, await fs.lstat(to.abs), null);
  }

  async delete(apiPath: string): Promise<void> {
    const { api, abs, stat } = await this.resolve(apiPath, { mustExist: true });
    if (api === '') refuse(400, 'The notebooks directory itself cannot be deleted');
    if (stat!.isDirectory()) await fs.rmdir(abs).catch(() => refuse(409, `${api} is not empty`));
    else await fs.unlink(abs);
  }

  // Checkpoints: one per notebook, kept beside it in .ipynb_checkpoints as Jupyter does.
  private async checkpointPath(apiPath: string): Promise<{ api: string; abs: string; file: string }> {
    const { api, abs, stat } = await this.resolve(apiPath, { mustExist: true });
    if (!stat!.isFile()) refuse(400, 'Checkpoints exist only for notebooks');
    const file = path.join(path.dirname(abs), CHECKPOINT_DIR, path.basename(abs).replace(/\.ipynb$/, '-checkpoint.ipynb'));
    return { api, abs, file };
  }

  /**
   * The checkpoint file, when it is a regular file in a plain checkpoint directory: a symlinked
   * .ipynb_checkpoints (or checkpoint file) could point anywhere, and list, restore and delete follow neither.
   */
  private async existingCheckpoint(apiPath: string): Promise<{ abs: string; file: string; stat: Stats | undefined }> {
    const { abs, file } = await this.checkpointPath(apiPath);
    const dirStat = await fs.lstat(path.dirname(file)).catch(() => undefined);
    if (dirStat && !dirStat.isDirectory()) refuse(403, 'Checkpoint directory is not a plain directory');
    const stat = await fs.lstat(file).catch(() => undefined);
    return { abs, file, stat: stat?.isFile() ? stat : undefined };
  }

  /** The checkpoint `id` of a notebook, which must exist (404 otherwise). */
  private async checkpointFile(apiPath: string, id: string): Promise<{ abs: string; file: string }> {
    if (id !== CHECKPOINT_ID) refuse(404, `No checkpoint ${id.slice(0, 40)}`);
    const { abs, file, stat } = await this.existingCheckpoint(apiPath);
    if (!stat) refuse(404, 'No checkpoint');
    return { abs, file };
  }

  async listCheckpoints(apiPath: string): Promise<CheckpointModel[]> {
    const { stat } = await this.existingCheckpoint(apiPath);
    return stat ? [{ id: CHECKPOINT_ID, last_modified: stat.mtime.toISOString() }] : [];
  }

  async createCheckpoint(apiPath: string): Promise<CheckpointModel> {
    const { abs, file } = await this.checkpointPath(apiPath);
    await fs.mkdir(path.dirname(file), { recursive: true });
    const dirStat = await fs.lstat(path.dirname(file));
    if (!dirStat.isDirectory()) refuse(403, 'Checkpoint directory is not a plain directory');
    await this.writeAtomic(file, await readNoFollow(abs));
    return { id: CHECKPOINT_ID, last_modified: (await fs.lstat(file)).mtime.toISOString() };
  }

  async restoreCheckpoint(apiPath: string, id: string): Promise<void> {
    const { abs, file } = await this.checkpointFile(apiPath, id);
    // Opened without following a link swapped in since the check, and restored only if it is a notebook.
    const handle = await fs.open(file, constants.O_RDONLY | constants.O_NOFOLLOW).catch(() => refuse(404, 'No checkpoint'));
    let data: Buffer;
    try {
      data = await handle.readFile();
    } finally {
      await handle.close();
    }
    const json = parseBoundedJson(data.toString('utf8'));
    if (!json.ok || !NotebookSchema.safeParse(json.value).success) refuse(422, `The checkpoint of ${apiPath.slice(0, 200)} is not valid JSON of an nbformat 4.5 notebook; nothing was restored`);
    await this.writeAtomic(abs, data);
  }

  async deleteCheckpoint(apiPath: string, id: string): Promise<void> {
    const { file } = await this.checkpointFile(apiPath, id);
    await fs.unlink(file).catch(() => refuse(404, 'No checkpoint'));
  }

  /**
   * Writes a temporary file beside the target, fsyncs it, renames it over the target and fsyncs the
   * directory. Every directory on the way is opened from the root without following symlinks, and both
   * names are then used relative to that open directory (Linux's /proc/self/fd/N names the open directory
   * itself, like openat), so a directory swapped for a symlink mid-save cannot redirect either file.
   * A failed save removes its temporary file; one a killed process left behind is removed at start.
   */
  private async writeAtomic(abs: string, data: string | Buffer): Promise<void> {
    this.realRoot ??= await fs.realpath(this.root);
    const rel = path.relative(this.realRoot, abs);
    if (rel === '' || rel.startsWith('..') || path.isAbsolute(rel)) refuse(400, 'Path outside the notebooks directory');
    const segments = rel.split(path.sep);
    const name = segments.pop()!;
    const dir = await this.openDirectoryBeneath(segments);
    const temp = `${TEMP_PREFIX}${randomUUID()}${TEMP_SUFFIX}`;
    const at = (entry: string): string => (dir.viaProc ? `/proc/self/fd/${dir.handle.fd}/${entry}` : path.join(this.realRoot!, ...segments, entry));
    let written = false;
    try {
      const file = await fs.open(at(temp), constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, 0o644);
      written = true;
      try {
        await file.writeFile(data);
        await file.sync();
      } finally {
        await file.close();
      }
      await fs.rename(at(temp), at(name));
      written = false;
      await dir.handle.sync().catch(() => undefined); // some file systems cannot fsync a directory
    } finally {
      if (written) await fs.unlink(at(temp)).catch(() => undefined);
      await dir.handle.close();
    }
  }

  /** Opens `root/segments…` one directory at a time, refusing any symlink on the way. */
  private async openDirectoryBeneath(segments: string[]): Promise<{ handle: FileHandle; viaProc: boolean }> {
    let handle = await fs.open(this.realRoot!, constants.O_RDONLY | constants.O_DIRECTORY);
    const viaProc = await fs.access(`/proc/self/fd/${handle.fd}`).then(
      () => true,
      () => false,
    );
    for (let i = 0; i < segments.length; i++) {
      const next = viaProc ? `/proc/self/fd/${handle.fd}/${segments[i]}` : path.join(this.realRoot!, ...segments.slice(0, i + 1));
      let child: FileHandle;
      try {
        child = await fs.open(next, constants.O_RDONLY | constants.O_DIRECTORY | constants.O_NOFOLLOW);
      } catch (error) {
        await handle.close();
        const code = (error as NodeJS.ErrnoException).code;
        if (code === 'ENOENT') return refuse(404, 'Parent directory is missing');
        return refuse(403, 'A directory on the path is a symbolic link or not a directory');
      }
      await handle.close();
      handle = child;
    }
    return { handle, viaProc };
  }

  /**
   * Removes temporary files of saves that never finished (the process was killed), anywhere under the
   * root; symlinked directories are not entered. Called once when the server starts.
   */
  async removeStaleTemporaryFiles(): Promise<number> {
    this.realRoot ??= await fs.realpath(this.root);
    let removed = 0;
    const walk = async (dir: string, depth: number): Promise<void> => {
      if (depth > 32) return;
      const entries = await fs.readdir(dir, { withFileTypes: true }).catch(() => []);
      for (const entry of entries) {
        const full = path.join(dir, entry.name);
        if (entry.isDirectory()) await walk(full, depth + 1);
        else if (entry.isFile() && isTemporaryName(entry.name)) {
          await fs.unlink(full).then(
            () => removed++,
            () => undefined,
          );
        }
      }
    };
    await walk(this.realRoot, 0);
    return removed;
  }
}

const TEMP_PREFIX = '.~nighthawk-save-';
const TEMP_SUFFIX = '.tmp';

/** This store's temporary names, and those of earlier versions (`.~NAME.PID.MS.tmp`). */
function isTemporaryName(name: string): boolean {
  return (name.startsWith(TEMP_PREFIX) && name.endsWith(TEMP_SUFFIX)) || /^\.~.+\.\d+\.\d+\.tmp$/.test(name);
}

/**
 * A file's bytes, opened without following a link: the path was checked with lstat, and a link swapped in since
 * (to a file outside the notebooks directory) is refused rather than read.
 */
async function readNoFollow(abs: string): Promise<Buffer> {
  const handle = await fs.open(abs, constants.O_RDONLY | constants.O_NOFOLLOW).catch((error: NodeJS.ErrnoException) =>
    error.code === 'ELOOP' ? refuse(403, 'Symbolic links are not served') : Promise.reject(error),
  );
  try {
    return await handle.readFile();
  } finally {
    await handle.close();
  }
}
