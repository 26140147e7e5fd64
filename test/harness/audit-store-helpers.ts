import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createPerimeterAttempt, type PerimeterAttempt } from '../../kernel/src/harness/audit-store.js';

/** A fresh temporary directory (a process-boundary fake) and its cleanup. */
export function tempDir(prefix = 'nh-audit-'): { dir: string; cleanup: () => void } {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

let counter = 0;

export function sampleAttempt(overrides: Partial<Parameters<typeof createPerimeterAttempt>[0]> = {}): PerimeterAttempt {
  counter++;
  return createPerimeterAttempt({
    runId: 'run_1',
    capability: 'delete_file',
    footprint: ['destructive'],
    arguments: { path: `/data/file-${counter}.txt` },
    attemptedAt: 1_700_000_000_000 + counter,
    ...overrides,
  });
}
