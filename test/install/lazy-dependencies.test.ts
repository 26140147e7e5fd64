import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ensureBuilt } from '../../kernel/src/server/runner/nb-build.js';

// Every notebook kernel imports the library (its Session host, then cells); most never call a model or open a
// SQLite store. The openai package and the better-sqlite3 addon load when first used, not with the library.
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

/** Packages under node_modules that importing `entry` (and running `then`) resolved, in a fresh process. */
function packagesLoaded(entry: string, then = ''): string[] {
  const hook = `export async function resolve(s, c, next) { const r = await next(s, c); const m = /node_modules\\/((?:@[^/]+\\/)?[^/]+)\\//.exec(r.url); if (m) process.stdout.write('PKG ' + m[1] + '\\n'); return r; }`;
  const script = [
    `import { register } from 'node:module';`,
    `register('data:text/javascript,' + encodeURIComponent(${JSON.stringify(hook)}));`,
    `const lib = await import(${JSON.stringify(pathToFileURL(entry).href)});`,
    then,
  ].join('\n');
  // better-sqlite3 is CommonJS loaded through createRequire, which the ESM hook does not see: require.cache does.
  const out = execFileSync(process.execPath, ['--input-type=module', '-e', `${script}\nfor (const k of Object.keys((await import('node:module')).createRequire(import.meta.url).cache)) { const m = /node_modules\\/([^/]+)\\//.exec(k); if (m) console.log('PKG ' + m[1]); }`], { cwd: root, encoding: 'utf8' });
  return [...new Set(out.split('\n').filter((l) => l.startsWith('PKG ')).map((l) => l.slice(4)))].sort();
}

describe('importing the library', () => {
  const entry = path.join(root, 'dist', 'kernel', 'src', 'index.js');

  it('loads neither openai nor better-sqlite3 until they are used', () => {
    ensureBuilt(() => {});
    const loaded = packagesLoaded(entry);
    expect(loaded).toContain('zod'); // the check sees packages the library does load
    expect(loaded).not.toContain('openai');
    expect(loaded).not.toContain('better-sqlite3');
  });

  it('loads better-sqlite3 when a SQLite ledger store opens', () => {
    ensureBuilt(() => {});
    const loaded = packagesLoaded(entry, `const store = new lib.SqliteLedgerStore(':memory:'); store.close?.();`);
    expect(loaded).toContain('better-sqlite3');
  });
});
