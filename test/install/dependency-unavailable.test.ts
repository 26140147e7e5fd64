import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { ensureBuilt } from '../../kernel/src/server/runner/nb-build.js';
import { startOpenAIServer, completion } from '../support/openai-server.js';

// `openai` and `better-sqlite3` load on first use (see lazy-dependencies.test.ts), so a broken install shows up
// then, not at import. It must arrive as one typed error naming the package and the fix, not as a raw module
// error, and not as a request failure ("is the server running?") that a caller would retry.
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const entry = pathToFileURL(path.join(root, 'dist', 'kernel', 'src', 'index.js')).href;
const dir = mkdtempSync(path.join(tmpdir(), 'nh-dependency-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

interface Seen {
  name: string;
  kind: string;
  dependency?: string;
  message: string;
  causeName?: string;
}

/** Runs `body` (ESM, `lib` in scope) in a fresh process where `blocked` cannot be loaded; returns what it caught. */
function caughtWith(blocked: 'openai' | 'better-sqlite3', body: string): Seen {
  // ESM imports go through the resolve hook; better-sqlite3 is required through createRequire, so Module._load.
  const hook = `export async function resolve(s, c, next) { if (s === ${JSON.stringify(blocked)}) throw new Error("Cannot find package '${blocked}'"); return next(s, c); }`;
  const script = [
    `import { register, default as Module } from 'node:module';`,
    `register('data:text/javascript,' + encodeURIComponent(${JSON.stringify(hook)}));`,
    `const load = Module._load; Module._load = function (request, ...rest) { if (request === ${JSON.stringify(blocked)}) throw new Error("Cannot find module '${blocked}'"); return load.call(this, request, ...rest); };`,
    `const lib = await import(${JSON.stringify(entry)});`,
    `try { ${body}; console.log(JSON.stringify({ name: 'none' })); }`,
    `catch (e) { console.log(JSON.stringify({ name: e.name, kind: e.kind, dependency: e.dependency, message: e.message, causeName: e.cause?.name, causeKind: e.cause?.kind, causeDependency: e.cause?.dependency })); }`,
  ].join('\n');
  const out = execFileSync(process.execPath, ['--input-type=module', '-e', script], { cwd: root, encoding: 'utf8' });
  return JSON.parse(out.trim().split('\n').at(-1)!) as Seen;
}

describe('a dependency loaded on first use is missing', () => {
  it('a model request fails once with DependencyUnavailableError naming openai and the fix, before any request is sent', async () => {
    ensureBuilt(() => {});
    const server = await startOpenAIServer({ replies: [completion({ text: 'never sent' })] });
    try {
      const seen = caughtWith(
        'openai',
        `await new lib.OpenAIModelClient({ apiKey: 'sk-test', baseURL: ${JSON.stringify(server.baseURL)}, env: {}, maxRetries: 2 })` +
          `.request({ messages: [{ role: 'user', content: 'hi' }], tools: [], outputToolName: 'final_result' })`,
      );
      expect(seen).toMatchObject({ name: 'DependencyUnavailableError', kind: 'dependency-unavailable', dependency: 'openai' });
      expect(seen.message).toContain("Cannot find package 'openai'");
      expect(seen.message).toContain('npm install');
      expect(seen.message).not.toContain('Is the server running');
      expect(server.requests).toHaveLength(0);
    } finally {
      await server.close();
    }
  });

  it('opening a SQLite ledger store fails with DependencyUnavailableError naming better-sqlite3', () => {
    ensureBuilt(() => {});
    const seen = caughtWith('better-sqlite3', `new lib.SqliteLedgerStore(${JSON.stringify(path.join(dir, 'ledger.db'))})`);
    expect(seen).toMatchObject({ name: 'DependencyUnavailableError', kind: 'dependency-unavailable', dependency: 'better-sqlite3' });
    expect(seen.message).toContain('npm rebuild better-sqlite3');
  });

  it('opening a SQLite perimeter audit store fails closed with its typed error, the dependency error as cause', () => {
    ensureBuilt(() => {});
    const seen = caughtWith('better-sqlite3', `new lib.SqlitePerimeterAuditStore({ path: ${JSON.stringify(path.join(dir, 'audit.db'))} })`) as Seen & { causeKind?: string; causeDependency?: string };
    expect(seen).toMatchObject({ name: 'PerimeterAuditStoreUnavailableError', causeName: 'DependencyUnavailableError', causeKind: 'dependency-unavailable', causeDependency: 'better-sqlite3' });
    expect(seen.message).toContain('better-sqlite3 package could not be loaded');
  });
});
