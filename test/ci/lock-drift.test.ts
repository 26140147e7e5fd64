import { execFileSync, spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, expect, test } from 'vitest';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const copy = mkdtempSync(path.join(tmpdir(), 'nighthawk-lock-'));
afterAll(() => rmSync(copy, { recursive: true, force: true }));

/** A scratch copy of the guard script and the lock (the script works relative to its repository root). */
function scratch(): string {
  mkdirSync(path.join(copy, 'scripts'), { recursive: true });
  copyFileSync(path.join(root, 'scripts', 'check-lock.sh'), path.join(copy, 'scripts', 'check-lock.sh'));
  copyFileSync(path.join(root, 'package-lock.json'), path.join(copy, 'package-lock.json'));
  return path.join(copy, 'scripts', 'check-lock.sh');
}

test('the lock guard passes when package-lock.json is untouched and fails when the run rewrote it', () => {
  const script = scratch();
  const state = path.join(copy, 'state');
  execFileSync('bash', [script, 'snapshot', state]);
  expect(spawnSync('bash', [script, 'verify', state]).status).toBe(0);
  const lock = path.join(copy, 'package-lock.json');
  writeFileSync(lock, readFileSync(lock, 'utf8').replace('"lockfileVersion"', '"lockfileVersion_drift": 1,\n  "lockfileVersion"'));
  const drift = spawnSync('bash', [script, 'verify', state], { encoding: 'utf8' });
  expect(drift.status).toBe(1);
  expect(drift.stderr).toMatch(/package-lock\.json changed during the run/);
});

test('CI installs exactly the lock (npm ci), runs the suite through the guard and checks the lock against git', () => {
  const ci = readFileSync(path.join(root, '.ci', 'run'), 'utf8');
  expect(ci).toMatch(/^npm ci\b.*&& npm test$/m);
  expect(ci).not.toMatch(/npm install/);
  expect(ci).toMatch(/git diff --exit-code -- package-lock\.json/);
  const suite = readFileSync(path.join(root, 'scripts', 'test.sh'), 'utf8');
  expect(suite.indexOf('check-lock.sh snapshot')).toBeLessThan(suite.indexOf('npx vitest run'));
  expect(suite.indexOf('check-lock.sh verify')).toBeGreaterThan(suite.indexOf('npx vitest run'));
  expect(readFileSync(path.join(root, 'README.md'), 'utf8')).toContain('npm ci && npm test');
});
