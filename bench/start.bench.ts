/**
 * `npm start` to its URL: a start that rebuilds the library and the web app (NIGHTHAWK_FORCE_BUILD=1, the
 * baseline) against a second start with nothing changed (both builds skipped). Prints
 * `BENCH npm_start_to_url … baseline_p50_ms=<first> ratio=<second/first>`.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startOnce } from '../test/support/npm-start.js';
import { report } from './stats.js';

const scratch = mkdtempSync(path.join(os.tmpdir(), 'nighthawk-start-bench-'));
try {
  const first = await startOnce(['--port', '0'], scratch, 900_000, { ...process.env, NIGHTHAWK_FORCE_BUILD: '1' });
  await first.stop();
  const again: number[] = [];
  for (let i = 0; i < 3; i++) {
    const run = await startOnce(['--port', '0'], scratch);
    again.push(run.ms);
    await run.stop();
  }
  report('npm_start_to_url_unchanged', again, [first.ms]);
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
