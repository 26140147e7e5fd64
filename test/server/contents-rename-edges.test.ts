/**
 * Malformed renames through PATCH /api/contents: moving the notebooks directory itself, or a directory into
 * its own subtree, reached rename(2), whose EINVAL became a 500 (an alarm in the server log with a reference
 * for each one a client sends). They are the client's mistakes: a 400 naming the problem, nothing moved.
 */
import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { startKernelServer, type KernelServerFixture } from '../support/kernel-server.js';

let fx: KernelServerFixture;
const logged: string[] = [];

beforeAll(async () => {
  fx = await startKernelServer({ spareKernels: 0, log: (line) => void logged.push(line) });
  mkdirSync(path.join(fx.notebookDir, 'folder'));
});

afterAll(async () => {
  await fx?.close();
});

async function rename(from: string, to: string): Promise<{ status: number; message: string }> {
  const res = await fetch(`${fx.server.baseUrl}api/contents/${from}`, {
    method: 'PATCH',
    headers: { Authorization: `token ${fx.server.token}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ path: to }),
  });
  return { status: res.status, message: ((await res.json()) as { message: string }).message };
}

test('renaming the notebooks directory itself is a 400, not a 500', async () => {
  const answer = await rename('', 'moved');
  expect(answer.status).toBe(400);
  expect(answer.message).toMatch(/notebooks directory/);
  expect(existsSync(path.join(fx.notebookDir, 'moved'))).toBe(false);
});

test('moving a directory into its own subtree is a 400 and the directory stays', async () => {
  const answer = await rename('folder', 'folder/inner');
  expect(answer.status).toBe(400);
  expect(answer.message).toMatch(/into itself/);
  expect(existsSync(path.join(fx.notebookDir, 'folder'))).toBe(true);
  expect(logged.filter((line) => line.startsWith('api error'))).toEqual([]);
});

test('a sibling whose name starts with the directory name is still a valid target', async () => {
  const answer = await rename('folder', 'folder-2');
  expect(answer.status).toBe(200);
  expect(existsSync(path.join(fx.notebookDir, 'folder-2'))).toBe(true);
});
