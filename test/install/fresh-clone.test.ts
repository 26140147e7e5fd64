// Issue 15.5: on a fresh clone, installing is the only step before `npx nighthawk-ts kernel install`.
// This runs scripts/fresh-clone-check.sh against a `git clone` of this repository's committed tree, with
// node_modules hard-linked from this checkout (`npm install --offline` then runs the same `prepare`
// lifecycle npm ci runs). The real `npm ci` path is the script's default (`bash scripts/fresh-clone-check.sh`,
// minutes: better-sqlite3 compiles from source); set NIGHTHAWK_FRESH_CLONE_NPM_CI=1 to run it here too.
import { execFile } from 'node:child_process';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const run = promisify(execFile);
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const script = path.join(root, 'scripts', 'fresh-clone-check.sh');

async function check(args: string[]): Promise<string> {
  const { stdout } = await run('bash', [script, ...args, root], { cwd: root, maxBuffer: 64 * 1024 * 1024, timeout: 1_500_000 });
  return stdout.trim().split('\n').at(-1)!;
}

function assertInstalled(clone: string): void {
  const work = path.dirname(clone);
  const kernelJson = JSON.parse(readFileSync(path.join(work, 'prefix', 'share', 'jupyter', 'kernels', 'nighthawk', 'kernel.json'), 'utf8')) as { argv: string[] };
  // The kernelspec runs the clone's own built CLI.
  expect(kernelJson.argv.some((a) => a === path.join(clone, 'dist', 'kernel', 'src', 'cli.js'))).toBe(true);
  expect(existsSync(path.join(clone, 'dist', 'kernel', 'src', 'server', 'display', 'session-host.js'))).toBe(true);
}

describe('a fresh clone', () => {
  it('install, then npx nighthawk-ts kernel install --prefix, works with no other step and leaves git status clean', { timeout: 600_000 }, async () => {
    const clone = await check(['--reuse-node-modules', root]);
    try {
      assertInstalled(clone);
    } finally {
      rmSync(path.dirname(clone), { recursive: true, force: true });
    }
  });

  it.runIf(process.env['NIGHTHAWK_FRESH_CLONE_NPM_CI'] === '1')('the same with a real npm ci', { timeout: 1_500_000 }, async () => {
    const clone = await check([]);
    try {
      assertInstalled(clone);
    } finally {
      rmSync(path.dirname(clone), { recursive: true, force: true });
    }
  });

  it('the script fails, naming the step, when the install does not build the CLI', { timeout: 600_000 }, async () => {
    // The same tree with the prepare script taken out (committed in a scratch repository) must fail the check.
    const tmp = await run('mktemp', ['-d']);
    const repo = tmp.stdout.trim();
    try {
      await run('git', ['clone', '--quiet', root, repo]);
      const manifest = path.join(repo, 'package.json');
      const pkg = JSON.parse(readFileSync(manifest, 'utf8')) as { scripts: Record<string, string> };
      expect(pkg.scripts['prepare']).toBeDefined();
      delete pkg.scripts['prepare'];
      writeFileSync(manifest, `${JSON.stringify(pkg, null, 2)}\n`);
      await run('git', ['-C', repo, '-c', 'user.name=test', '-c', 'user.email=test@localhost', 'commit', '--quiet', '-am', 'without prepare']);
      const failure = await run('bash', [script, '--reuse-node-modules', root, repo], { timeout: 600_000 }).then(
        () => undefined,
        (error: { stderr?: string }) => error.stderr ?? '',
      );
      expect(failure).toContain('FAILED: dist/kernel/src/cli.js was not built by the install (prepare)');
    } finally {
      rmSync(repo, { recursive: true, force: true });
    }
  });
});
