/**
 * The pre-check every build plugin and the kernel run on whole files. Kept apart from the TypeScript-based
 * block reading: the public declarations reach this file, and a declaration file that imports `typescript`
 * would make every notebook's type checker parse typescript.d.ts (574 KB, ~12 MB of kernel memory).
 */

/** Cheap pre-check on a whole source file: a quote or backtick directly followed by a sentinel line. */
const SOURCE_SENTINEL = /["'`](?:execute|decide)(?:\\n|\r?\n)/;

/** True when a source file may contain Natural blocks; files without one are never parsed. */
export function mayContainNaturalBlocks(source: string): boolean {
  return SOURCE_SENTINEL.test(source);
}
