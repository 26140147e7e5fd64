/** `npm run nb`: progress per cell, the executed notebook written, a failing cell named, usage errors explained. */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../', import.meta.url));
const sandbox = mkdtempSync(path.join(tmpdir(), 'nh-nb-cli-'));
afterAll(() => rmSync(sandbox, { recursive: true, force: true }));

function nb(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile('npm', ['run', '--silent', 'nb', '--', ...args], { cwd: root, env: { ...process.env, OPENAI_API_KEY: '', OPENAI_BASE_URL: '' } }, (error, stdout, stderr) => {
      resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, stdout, stderr });
    });
  });
}

function notebook(name: string, sources: string[]): string {
  const file = path.join(sandbox, name);
  writeFileSync(
    file,
    JSON.stringify({
      nbformat: 4,
      nbformat_minor: 5,
      metadata: {},
      cells: [
        { id: 'intro', cell_type: 'markdown', metadata: {}, source: '# A notebook with a failing cell' },
        ...sources.map((source, i) => ({ id: `c${i + 1}`, cell_type: 'code', metadata: {}, source, outputs: [], execution_count: null })),
      ],
    }),
  );
  return file;
}

describe('npm run nb', () => {
  it('run exits non-zero naming the first failing cell, prints progress and writes the executed notebook', { timeout: 90_000 }, async () => {
    const file = notebook('failing.ipynb', ['const answer = 40;\nconsole.log("before");\nanswer + 2', 'const broken = (null as unknown as { x: number });\nbroken.x', '"never runs"']);
    const out = path.join(sandbox, 'executed.ipynb');
    const { code, stdout, stderr } = await nb(['run', file, '--out', out]);
    expect(code).toBe(1);
    expect(stdout).toMatch(/\[1\/3\] ok \d+ ms {2}const answer = 40;/);
    expect(stdout).toMatch(/\[2\/3\] FAILED \d+ ms {2}const broken = /);
    expect(stdout).toContain("TypeError: Cannot read properties of null (reading 'x')");
    expect(stdout).not.toContain('[3/3]');
    expect(stderr).toContain('failing.ipynb: cell 3 of 4 (code cell 2 of 3): `const broken = (null as unknown as { x: number });`');
    const executed = JSON.parse(readFileSync(out, 'utf8')) as { nbformat: number; nbformat_minor: number; cells: { id: string; execution_count?: number | null; outputs?: { output_type: string; text?: string[]; data?: Record<string, unknown>; ename?: string }[] }[] };
    expect([executed.nbformat, executed.nbformat_minor]).toEqual([4, 5]);
    expect(executed.cells.map((c) => c.id)).toEqual(['intro', 'c1', 'c2', 'c3']);
    expect(executed.cells[1]).toMatchObject({ execution_count: 1, outputs: [{ output_type: 'stream', text: ['before\n'] }, { output_type: 'execute_result', data: { 'text/plain': '42' } }] });
    expect(executed.cells[2]!.outputs).toEqual([expect.objectContaining({ output_type: 'error', ename: 'TypeError' })]);
    expect(executed.cells[3]).toMatchObject({ execution_count: null, outputs: [] });
    // The source notebook is left as it was.
    expect(readFileSync(file, 'utf8')).not.toContain('execute_result');
  });

  it('--allow-errors runs every cell, keeps each error as an output, names the failures and exits 0', { timeout: 90_000 }, async () => {
    const file = notebook('allow-errors.ipynb', ['throw new RangeError("first")', '"still runs"', 'throw new TypeError("second")', '6 * 7']);
    const out = path.join(sandbox, 'allowed.ipynb');
    const { code, stdout } = await nb(['run', file, '--out', out, '--allow-errors']);
    expect(code).toBe(0);
    expect(stdout).toMatch(/\[4\/4\] ok/);
    expect(stdout).toContain('had failing cells (--allow-errors)');
    const executed = JSON.parse(readFileSync(out, 'utf8')) as { cells: { outputs?: { output_type: string; ename?: string; data?: Record<string, unknown> }[] }[] };
    const outputs = executed.cells.slice(1).map((c) => c.outputs?.[0]);
    expect(outputs.map((o) => o?.ename ?? o?.data?.['text/plain'])).toEqual(['RangeError', "'still runs'", 'TypeError', '42']);
  });

  it('usage errors exit 2 with a message and the usage text', { timeout: 60_000 }, async () => {
    const missing = await nb(['run']);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('nb: run needs a notebook path');
    expect(missing.stderr).toContain('Usage:');
    const unknown = await nb(['frobnicate']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain("nb: unknown command 'frobnicate'");
    const absent = await nb(['run', path.join(sandbox, 'absent.ipynb')]);
    expect(absent.code).toBe(2);
    expect(absent.stderr).toContain('absent.ipynb does not exist');
    const both = await nb(['run', path.join(sandbox, 'failing.ipynb'), '--in-place', '--out', path.join(sandbox, 'x.ipynb')]);
    expect(both.code).toBe(2);
    expect(both.stderr).toContain('--in-place cannot be combined with --out');
  });
});
