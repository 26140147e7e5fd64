/**
 * The notebook workspace: where the notebook server reads and creates notebooks, kept apart from the
 * demos shipped in the repository's notebooks/ (which the demo runner executes). On first start the
 * demos are copied in, so they can be run and edited without touching the shipped copies.
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';

/** Marks a workspace whose demos were copied once; deleting a demo later does not bring it back. */
export const WORKSPACE_MARKER = '.nighthawk-workspace';

export interface WorkspaceResult {
  /** Demo notebooks copied in this call (empty after the first start). */
  copied: string[];
}

/**
 * Creates `dir` if needed and, the first time, copies the `.ipynb` files of `demosDir` into it. Existing
 * files are never overwritten. The same directory for both (an explicit --notebook-dir notebooks)
 * copies nothing.
 */
export async function prepareWorkspace(dir: string, demosDir: string | undefined): Promise<WorkspaceResult> {
  await fs.mkdir(dir, { recursive: true });
  const marker = path.join(dir, WORKSPACE_MARKER);
  const copied: string[] = [];
  if (await fs.stat(marker).then(() => true, () => false)) return { copied };
  if (demosDir && path.resolve(demosDir) !== path.resolve(dir)) {
    const names = await fs.readdir(demosDir).catch(() => [] as string[]);
    for (const name of names.filter((n) => n.endsWith('.ipynb')).sort()) {
      try {
        await fs.copyFile(path.join(demosDir, name), path.join(dir, name), fs.constants.COPYFILE_EXCL);
        copied.push(name);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      }
    }
  }
  await fs.writeFile(marker, `Demos copied from ${demosDir ?? '(none)'} on ${new Date().toISOString()}.\n`);
  return { copied };
}
