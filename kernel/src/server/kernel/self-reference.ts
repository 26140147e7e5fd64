/**
 * Lets cells type-check `import … from "<package name>"` for the package that contains the kernel's working
 * directory (the repo root package `nighthawk-ts`). Node resolves such self-references through the package's
 * `exports`, but tslab's compiler uses Node10 resolution, which only looks under node_modules. We present a
 * virtual `node_modules/<name>` to the compiler's file system that forwards to the package root, with one
 * `<subpath>.d.ts` per `exports` entry pointing at that entry's `types`. Runtime loading is untouched: Node's
 * own self-reference resolution loads the built JavaScript, so cells share the kernel's module instances.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

interface FileSystem {
  fileExists(p: string): boolean;
  readFile(p: string, encoding?: string): string | undefined;
  directoryExists(p: string): boolean;
  realpath?(p: string): string;
}

export interface PackageSelf {
  name: string;
  root: string;
  /** Virtual file path under node_modules → real file. */
  files: Map<string, string>;
  virtualRoot: string;
}

export function findPackageSelf(fromDir: string): PackageSelf | undefined {
  let dir = path.resolve(fromDir);
  for (;;) {
    const manifest = path.join(dir, 'package.json');
    if (existsSync(manifest)) {
      const pkg = JSON.parse(readFileSync(manifest, 'utf8')) as { name?: unknown; exports?: unknown };
      if (typeof pkg.name !== 'string' || typeof pkg.exports !== 'object' || pkg.exports === null) return undefined;
      const virtualRoot = path.join(path.resolve(fromDir), 'node_modules', pkg.name);
      if (existsSync(virtualRoot)) return undefined; // a real install wins
      const files = new Map<string, string>();
      for (const [subpath, target] of Object.entries(pkg.exports as Record<string, unknown>)) {
        const types = typeof target === 'object' && target !== null ? (target as Record<string, unknown>)['types'] : undefined;
        if (typeof types !== 'string') continue;
        const real = path.join(dir, types);
        const virtual = subpath === '.' ? path.join(virtualRoot, 'index.d.ts') : path.join(virtualRoot, subpath + '.d.ts');
        files.set(virtual, real);
      }
      return { name: pkg.name, root: dir, files, virtualRoot };
    }
    const parent = path.dirname(dir);
    if (parent === dir) return undefined;
    dir = parent;
  }
}

/** Wraps the compiler's `sys` so the virtual package resolves. Returns an undo function. */
export function installSelfReference(sys: FileSystem, self: PackageSelf): () => void {
  const original = {
    fileExists: sys.fileExists,
    readFile: sys.readFile,
    directoryExists: sys.directoryExists,
    realpath: sys.realpath,
  };
  const manifest = path.join(self.virtualRoot, 'package.json');
  const redirect = (p: string): string | undefined => {
    const normal = path.normalize(p);
    const mapped = self.files.get(normal);
    if (mapped !== undefined) return mapped;
    if (normal.startsWith(self.virtualRoot + path.sep)) return path.join(self.root, normal.slice(self.virtualRoot.length + 1));
    return undefined;
  };
  sys.fileExists = (p) => {
    if (path.normalize(p) === manifest) return true;
    const r = redirect(p);
    return r !== undefined ? original.fileExists.call(sys, r) : original.fileExists.call(sys, p);
  };
  sys.readFile = (p, encoding) => {
    // A minimal manifest: Node10 resolution then looks for index.d.ts, which maps to exports['.'].types.
    if (path.normalize(p) === manifest) return JSON.stringify({ name: self.name, types: 'index.d.ts' });
    const r = redirect(p);
    return original.readFile.call(sys, r ?? p, encoding);
  };
  sys.directoryExists = (p) => {
    const normal = path.normalize(p);
    if (normal === self.virtualRoot || normal === path.dirname(self.virtualRoot)) return true;
    const r = redirect(p);
    return original.directoryExists.call(sys, r ?? p);
  };
  if (original.realpath) {
    const realpath = original.realpath;
    sys.realpath = (p) => {
      const r = redirect(p);
      return realpath.call(sys, r ?? p);
    };
  }
  return () => Object.assign(sys, original);
}
