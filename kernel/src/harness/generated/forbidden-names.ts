/**
 * Names the raw-dynamic-execution rule (raw-dynamic-rules.ts) refuses. Kept free of `typescript` types: the public declarations reach
 * this file, and a declaration file importing `typescript` makes every notebook's type checker parse
 * typescript.d.ts (574 KB, ~12 MB of kernel memory).
 */

/** Modules whose ordinary use runs constructed code or reaches the engine directly. */
export const FORBIDDEN_MODULES: ReadonlySet<string> = new Set(
  ['vm', 'child_process', 'inspector', 'inspector/promises', 'repl', 'v8', 'module'].flatMap((m) => [m, `node:${m}`]),
);
export const RESERVED_PREFIX = '__nh_';
