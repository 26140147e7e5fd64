/**
 * What a failed API request tells the client. Refusals keep their message; file-system errors become a
 * 4xx naming the problem; anything else is a 500 with a reference to the server log. No answer carries an
 * absolute server path (Node's fs errors embed them: `ENOTDIR: not a directory, rename '/home/…'`).
 */
import { randomBytes } from 'node:crypto';
import { RequestRefusedError } from '../kernel/index.js';

export interface PublicError {
  status: number;
  message: string;
  /** Set for 500s: the same reference is written to the server log. */
  reference?: string;
}

const FS_ERRORS: Record<string, [number, string]> = {
  ENOENT: [404, 'No such file or directory'],
  ENOTDIR: [409, 'A segment of the path is not a directory'],
  EISDIR: [409, 'The path is a directory'],
  EEXIST: [409, 'The path already exists'],
  ENOTEMPTY: [409, 'The directory is not empty'],
  ELOOP: [403, 'Symbolic links are not followed'],
  EACCES: [403, 'Permission denied on the server'],
  EPERM: [403, 'Operation not permitted on the server'],
  ENOSPC: [507, 'No space left on the server'],
  ENAMETOOLONG: [400, 'Path too long'],
};

export function publicError(error: unknown, roots: ReadonlyArray<string | undefined>): PublicError {
  if (error instanceof RequestRefusedError) return { status: error.status, message: scrubPaths(error.message, roots) };
  const code = (error as NodeJS.ErrnoException | null)?.code;
  if (typeof code === 'string' && code in FS_ERRORS) {
    const [status, message] = FS_ERRORS[code]!;
    if (status < 500) return { status, message };
  }
  const reference = randomBytes(4).toString('hex');
  return { status: 500, message: `Internal server error (reference ${reference} in the server log)`, reference };
}

/** Replaces known server directories, then any remaining absolute path, in a message meant for clients. */
export function scrubPaths(message: string, roots: ReadonlyArray<string | undefined>): string {
  let out = message;
  for (const root of roots) if (root) out = out.split(root).join('…');
  return out.replace(/(^|[\s'"(=])\/(?:[^\s'"/]+\/)+[^\s'")]*/g, '$1…');
}
