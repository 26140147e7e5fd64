import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { SqlitePerimeterAuditStore } from '../../kernel/src/harness/sqlite-audit-store.js';
import { tempDir } from './audit-store-helpers.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const CHILD = fileURLToPath(new URL('./fixtures/audit-crash-child.ts', import.meta.url));
const ITERATIONS = 20;

/** Starts the child, waits for its READY line (the attempt is committed, the effect is running), then SIGKILLs it. */
async function crashBetweenAttemptAndCompletion(path: string, iteration: number): Promise<string> {
  const child = spawn(process.execPath, ['--import', 'tsx', CHILD, path, String(iteration)], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const exited = once(child, 'exit') as Promise<[number | null, NodeJS.Signals | null]>;
  const ready = new Promise<string>((resolve, reject) => {
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk;
      const match = /^READY (\S+)\n/m.exec(stdout);
      if (match) resolve(match[1]!);
    });
    void exited.then(([code]) => reject(new Error(`child exited (${code}) before READY: ${stderr}`)));
  });
  const attemptId = await ready;
  child.kill('SIGKILL');
  const [, signal] = await exited;
  expect(signal).toBe('SIGKILL');
  return attemptId;
}

describe('perimeter audit across a crash', () => {
  const { dir, cleanup } = tempDir('nh-audit-crash-');
  afterAll(cleanup);

  it(`a process killed by SIGKILL between attempt and completion ${ITERATIONS} times loses nothing, and each killed attempt reads indeterminate`, async () => {
    const path = join(dir, 'audit.db');
    for (let i = 0; i < ITERATIONS; i++) {
      const pendingId = await crashBetweenAttemptAndCompletion(path, i);
      expect(pendingId).toBe(`crash_${i}_pending`);

      const store = new SqlitePerimeterAuditStore({ path });
      try {
        expect(store.get(pendingId)?.status).toBe('indeterminate');
        const entries = store.list();
        const expected = Array.from({ length: i + 1 }, (_, k) => [
          [`crash_${k}_done`, 'completed'],
          [`crash_${k}_pending`, 'indeterminate'],
        ]).flat();
        expect(entries.map((e) => [e.attempt.attemptId, e.status])).toEqual(expected);
        expect(entries.map((e) => e.sequence)).toEqual(expected.map((_, k) => k + 1));
        expect(JSON.parse(store.get(pendingId)!.attempt.arguments)).toEqual({ path: `/data/${i}-pending` });
      } finally {
        store.close();
      }
    }
  }, 120_000);
});
