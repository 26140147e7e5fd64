import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { ensureKernelBuilt, root } from '../zmq/zmq-fixture.js';

// The real `npm start` entry (built main.js): where the token comes from, and where it must not show.
const main = path.join(root, 'dist', 'kernel', 'src', 'server', 'main.js');
let sandbox: string;
const children: ChildProcess[] = [];

beforeAll(() => {
  ensureKernelBuilt();
  sandbox = mkdtempSync(path.join(tmpdir(), 'nighthawk-token-'));
}, 120_000);

afterAll(() => {
  for (const child of children) child.kill('SIGKILL');
  rmSync(sandbox, { recursive: true, force: true });
});

interface Started {
  child: ChildProcess;
  url: string;
  stderr: () => string;
}

function startMain(args: string[], env: NodeJS.ProcessEnv = {}): Promise<Started> {
  const child = spawn(process.execPath, [main, '--port', '0', '--no-open', '--spare-kernels', '0', '--notebook-dir', path.join(sandbox, 'nb'), '--data-dir', path.join(sandbox, 'data'), ...args], {
    cwd: root,
    env: { ...process.env, NIGHTHAWK_TOKEN: undefined, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let out = '';
  let err = '';
  child.stderr!.on('data', (d) => (err += String(d)));
  return new Promise((resolve, reject) => {
    child.stdout!.on('data', (d) => {
      out += String(d);
      const match = /Open: (\S+)/.exec(out);
      if (match) resolve({ child, url: match[1]!, stderr: () => err });
    });
    child.on('exit', (code) => reject(new Error(`main.js exited with ${code}: ${err}`)));
  });
}

/** Every process on the machine whose command line contains `secret`. */
function cmdlinesContaining(secret: string): string[] {
  const found: string[] = [];
  for (const pid of readdirSync('/proc').filter((n) => /^\d+$/.test(n))) {
    try {
      const cmdline = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
      if (cmdline.includes(secret)) found.push(`${pid}: ${cmdline.replace(/\0/g, ' ')}`);
    } catch {
      // exited meanwhile
    }
  }
  return found;
}

async function apiStatus(url: string, token: string): Promise<number> {
  const base = new URL(url);
  const response = await fetch(`${base.origin}/api/kernels`, { headers: { Authorization: `token ${token}` } });
  return response.status;
}

describe('token sources', () => {
  test('NIGHTHAWK_TOKEN: the printed URL carries it and no process command line does', async () => {
    const secret = 'envtoken' + 'a1b2c3d4e5f6'.repeat(3);
    const { child, url, stderr } = await startMain([], { NIGHTHAWK_TOKEN: secret });
    expect(url).toMatch(new RegExp(`^http://127\\.0\\.0\\.1:\\d+/\\?token=${secret}$`));
    expect(await apiStatus(url, secret)).toBe(200);
    expect(await apiStatus(url, 'wrong')).toBe(403);
    expect(cmdlinesContaining(secret)).toEqual([]);
    expect(readFileSync(`/proc/${child.pid}/cmdline`, 'utf8')).not.toContain(secret);
    expect(stderr()).not.toMatch(/--token/);
    child.kill('SIGTERM');
  }, 60_000);

  test('--token-file: the token is read from the file (trailing newline dropped) and stays off the command line', async () => {
    const secret = 'filetoken' + 'f0e1d2c3b4a5'.repeat(3);
    const file = path.join(sandbox, 'token');
    writeFileSync(file, secret + '\n', { mode: 0o600 });
    const { child, url, stderr } = await startMain(['--token-file', file]);
    expect(url.endsWith(`/?token=${secret}`)).toBe(true);
    expect(await apiStatus(url, secret)).toBe(200);
    expect(cmdlinesContaining(secret)).toEqual([]);
    expect(stderr()).not.toMatch(/--token/);
    child.kill('SIGTERM');
  }, 60_000);

  test('--token on the command line still works and warns that it is visible to other users', async () => {
    const secret = 'argtoken' + '9a8b7c6d5e4f'.repeat(3);
    const { child, url, stderr } = await startMain(['--token', secret]);
    expect(url.endsWith(`/?token=${secret}`)).toBe(true);
    expect(stderr()).toMatch(/--token.*visible.*NIGHTHAWK_TOKEN.*--token-file/s);
    child.kill('SIGTERM');
  }, 60_000);

  test('an empty or missing token file is refused with a clear message', async () => {
    writeFileSync(path.join(sandbox, 'empty'), '\n');
    await expect(startMain(['--token-file', path.join(sandbox, 'empty')])).rejects.toThrow(/token file .* is empty/);
    await expect(startMain(['--token-file', path.join(sandbox, 'absent')])).rejects.toThrow(/cannot read the token file/);
  }, 60_000);
});
