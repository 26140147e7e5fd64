import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { ensureBuilt } from '../../kernel/src/server/runner/nb-build.js';

// A notebook cell importing the library makes the kernel's type checker load every declaration file the
// package's types reach. One that imports `typescript` adds typescript.d.ts (574 KB parsed and bound, ~12 MB
// of kernel memory and ~100 ms for the first importing cell), though no public name needs a TypeScript type.
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

/** Every declaration file reachable from `entry`, with the bare specifiers each one imports. */
function reachable(entry: string): Map<string, string[]> {
  const found = new Map<string, string[]>();
  const queue = [entry];
  while (queue.length > 0) {
    const file = queue.shift()!;
    if (found.has(file)) continue;
    const info = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
    const bare: string[] = info.typeReferenceDirectives.map((r) => r.fileName);
    for (const { fileName } of [...info.importedFiles, ...info.referencedFiles]) {
      if (!fileName.startsWith('.')) {
        bare.push(fileName);
        continue;
      }
      const target = path.resolve(path.dirname(file), fileName).replace(/\.js$/, '');
      const candidates = [`${target}.d.ts`, path.join(target, 'index.d.ts'), target];
      const next = candidates.find((c) => c.endsWith('.d.ts') && existsSync(c));
      if (!next) throw new Error(`${path.relative(root, file)} imports ${fileName}, which has no declaration file`);
      queue.push(next);
    }
    found.set(file, bare);
  }
  return found;
}

describe('the public declarations', () => {
  it('never reach the typescript package, so cells importing the library do not load typescript.d.ts', () => {
    ensureBuilt(() => {});
    const pkg = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as { exports: Record<string, { types: string }> };
    const files = reachable(path.join(root, pkg.exports['.']!.types));
    // The walk itself is checked: the entry reaches the core, harness and Session declarations.
    expect([...files.keys()].some((f) => f.endsWith(path.join('harness', 'generated', 'index.d.ts')))).toBe(true);
    expect(files.size).toBeGreaterThan(50);
    const offenders = [...files].filter(([, bare]) => bare.some((s) => s === 'typescript' || s.startsWith('typescript/') || s.startsWith('@tslab/')));
    expect(offenders.map(([file]) => path.relative(root, file))).toEqual([]);
  });
});
