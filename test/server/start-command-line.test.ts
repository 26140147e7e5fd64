/** `npm start`'s command line (the built main.js): bad flags are said in one line, exit 2, and start nothing. */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { ensureKernelBuilt, root } from '../zmq/zmq-fixture.js';

const main = path.join(root, 'dist', 'kernel', 'src', 'server', 'main.js');
let sandbox: string;

beforeAll(() => {
  ensureKernelBuilt();
  sandbox = mkdtempSync(path.join(tmpdir(), 'nighthawk-start-args-'));
}, 120_000);

afterAll(() => rmSync(sandbox, { recursive: true, force: true }));

function start(args: string[]) {
  const notebooks = path.join(sandbox, `nb-${Math.random().toString(36).slice(2)}`);
  const result = spawnSync(process.execPath, [main, '--no-open', '--notebook-dir', notebooks, ...args], { cwd: root, encoding: 'utf8', timeout: 30_000 });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr, started: existsSync(notebooks) };
}

describe('npm start: the command line', () => {
  test('--help and -h print the usage on stdout and exit 0', () => {
    for (const flag of ['--help', '-h']) {
      const help = start([flag]);
      expect({ flag, code: help.code, stderr: help.stderr, started: help.started }).toEqual({ flag, code: 0, stderr: '', started: false });
      expect(help.stdout).toContain('Usage: npm start --');
    }
  });

  test('a misspelt option, a missing value, a stray argument or a bad number exits 2 with one line and the usage, before anything starts', () => {
    const cases: Array<[string[], string]> = [
      [['--bogus'], "unknown option '--bogus'"],
      [['--port'], "option '--port' needs a value"],
      [['--port', '--spare-kernels', '0'], "option '--port' needs a value (one that starts with a dash is written --port=VALUE)"],
      [['extra'], "unexpected argument 'extra'"],
      [['--port', 'abc'], "--port must be a port number (0-65535), got 'abc'"],
      [['--port', '70000'], "--port must be a port number (0-65535), got '70000'"],
      [['--spare-kernels', 'two'], "--spare-kernels must be a whole number (0 disables), got 'two'"],
      [['--cull-idle-minutes=-5'], "--cull-idle-minutes must be a number of minutes (0 disables), got '-5'"],
    ];
    for (const [args, message] of cases) {
      const result = start(args);
      expect({ args, code: result.code, started: result.started }).toEqual({ args, code: 2, started: false });
      const [first, ...rest] = result.stderr.trimEnd().split('\n');
      expect(first).toBe(message);
      expect(rest[0]).toMatch(/^Usage: npm start --/);
      expect(result.stderr).not.toMatch(/^\s+at /m);
    }
  });
});
