import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// ARCHITECTURE.md's dependency rules, checked from the import statements themselves.
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const LAYERS = ['core', 'model', 'harness', 'session', 'parts', 'server', 'build'] as const;
type Layer = (typeof LAYERS)[number];
const ALLOWED: Record<Layer, readonly Layer[]> = {
  core: [],
  model: ['core'],
  harness: ['core'],
  session: ['harness', 'core'],
  parts: ['harness', 'core'],
  build: ['core'],
  server: ['session', 'harness', 'core', 'model', 'parts'],
};

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return name === 'node_modules' || name === 'dist' ? [] : files(full);
    return /\.(ts|tsx)$/.test(name) && !name.endsWith('.d.ts') ? [full] : [];
  });
}

function imports(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  // `import … from`, `export … from`, a bare `import '…'` and `import('…')`.
  return [...text.matchAll(/(?:^|\n)\s*(?:import|export)\s[^'"]*?from\s+['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)|(?:^|\n)\s*import\s+['"]([^'"]+)['"]/g)].map((m) => (m[1] ?? m[2] ?? m[3])!);
}

function layerOf(file: string): Layer | undefined {
  const rel = path.relative(path.join(root, 'kernel', 'src'), file);
  const first = rel.split(path.sep)[0] as Layer;
  return LAYERS.includes(first) ? first : undefined;
}

describe('architecture: dependencies point inward', () => {
  it('each kernel folder imports only the folders ARCHITECTURE.md allows, through their index', () => {
    const violations: string[] = [];
    for (const file of files(path.join(root, 'kernel', 'src'))) {
      const from = layerOf(file);
      if (!from) continue;
      for (const spec of imports(file)) {
        if (!spec.startsWith('.')) continue;
        const target = path.resolve(path.dirname(file), spec);
        const to = layerOf(target);
        if (!to || to === from) continue;
        if (!ALLOWED[from].includes(to)) violations.push(`${path.relative(root, file)} imports ${to}: ${spec}`);
        else if (!/\/index\.js$/.test(spec) && path.dirname(path.relative(path.join(root, 'kernel', 'src', to), target)) !== '.') violations.push(`${path.relative(root, file)} reaches into ${to}: ${spec}`);
        else if (!/\/index\.js$/.test(spec)) violations.push(`${path.relative(root, file)} bypasses ${to}/index.ts: ${spec}`);
      }
    }
    expect(violations).toEqual([]);
  });

  it('server/ sub-folders import each other only in the allowed directions, through their index', () => {
    const server = path.join(root, 'kernel', 'src', 'server');
    const SUB = ['kernel', 'display', 'api', 'runner', 'zmq'] as const;
    type Sub = (typeof SUB)[number];
    const SUB_ALLOWED: Record<Sub, readonly Sub[]> = { kernel: [], display: ['kernel'], api: ['kernel'], zmq: ['kernel'], runner: ['api', 'kernel'] };
    const subOf = (file: string): Sub | undefined => {
      const first = path.relative(server, file).split(path.sep)[0] as Sub;
      return SUB.includes(first) ? first : undefined;
    };
    const violations: string[] = [];
    expect(readdirSync(server).filter((name) => name.endsWith('.ts')).sort()).toEqual(['index.ts', 'main.ts']);
    for (const sub of SUB) expect(statSync(path.join(server, sub, 'index.ts')).isFile()).toBe(true);
    for (const file of files(server)) {
      const from = subOf(file);
      if (!from) continue;
      for (const spec of imports(file)) {
        if (!spec.startsWith('.')) continue;
        const target = path.resolve(path.dirname(file), spec);
        const to = subOf(target);
        if (!to || to === from) continue;
        if (!SUB_ALLOWED[from].includes(to)) violations.push(`${path.relative(root, file)} imports server/${to}: ${spec}`);
        else if (path.relative(path.join(server, to), target) !== 'index.js') violations.push(`${path.relative(root, file)} bypasses server/${to}/index.ts: ${spec}`);
      }
    }
    expect(violations).toEqual([]);
  });

  it('shared/ imports only zod and itself; web/ imports shared/ but never kernel/', () => {
    const violations: string[] = [];
    for (const file of files(path.join(root, 'shared'))) {
      for (const spec of imports(file)) if (!spec.startsWith('./') && spec !== 'zod' && !spec.startsWith('zod/')) violations.push(`${path.relative(root, file)}: ${spec}`);
    }
    for (const file of files(path.join(root, 'web', 'src'))) {
      // A relative import that lands in the project's kernel/ (a package's own `lib/kernel/` is not ours).
      const intoKernel = (spec: string): boolean => spec.startsWith('.') && path.relative(root, path.resolve(path.dirname(file), spec)).split(path.sep)[0] === 'kernel';
      for (const spec of imports(file)) if (intoKernel(spec)) violations.push(`${path.relative(root, file)}: ${spec}`);
    }
    expect(violations).toEqual([]);
  });
});
