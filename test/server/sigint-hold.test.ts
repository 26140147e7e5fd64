import { fork } from 'node:child_process';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { beforeAll, describe, expect, test } from 'vitest';
import { ensureKernelBuilt, root } from '../zmq/zmq-fixture.js';

const CHILD = path.join(root, 'test', 'server', 'fixtures', 'sigint-child.mjs');
const HOLD = pathToFileURL(path.join(root, 'dist', 'kernel', 'src', 'server', 'kernel', 'sigint-hold.js')).href;

interface Seen {
  sent: number;
  cells: number;
  interrupted: number;
  reported: number;
  heard: number;
}
interface Outcome {
  done?: Seen;
  signal: NodeJS.Signals | null;
}

function runChild(mode: 'hold' | 'listener' | 'takeover', limit: number): Promise<Outcome> {
  return new Promise((resolve) => {
    const child = fork(CHILD, [mode, HOLD, '2000', String(limit)], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    let done: Seen | undefined;
    child.on('message', (message: { ready?: string; done?: Seen }) => {
      if (message.ready === 'listening') {
        // An operator's own listener owns the signal: it hears it, nothing dies.
        child.kill('SIGINT');
        setTimeout(() => child.send('remove'), 200);
      }
      if (message.done) done = message.done;
    });
    child.on('exit', (_code, signal) => resolve({ done, signal }));
  });
}

beforeAll(() => ensureKernelBuilt(), 120_000);

describe('the SIGINT hold of kernel processes', () => {
  test('a process that only listens for SIGINT dies of one that lands as a breakOnSigint cell ends (why the hold exists)', async () => {
    const outcome = await runChild('listener', 3000);
    expect(outcome.signal).toBe('SIGINT');
    expect(outcome.done).toBeUndefined();
  }, 20_000);

  test('with the hold, signals every millisecond across thousands of cells never end the process; each is taken by a cell or reported', async () => {
    const outcome = await runChild('hold', 1500);
    expect(outcome.signal).toBeNull();
    const seen = outcome.done!;
    expect(seen.cells).toBeGreaterThan(100);
    expect(seen.interrupted).toBeGreaterThan(0);
    expect(seen.reported).toBeGreaterThan(0);
    // Signals sent close together may arrive as one (the kernel does not queue them; on a loaded machine about
    // one in six arrives); none arrives twice.
    expect(seen.interrupted + seen.reported).toBeLessThanOrEqual(seen.sent);
    expect(seen.interrupted + seen.reported).toBeGreaterThan(seen.sent / 10);
  }, 20_000);

  test("an operator's own SIGINT listener takes the signal over; once it is removed the hold is back", async () => {
    const outcome = await runChild('takeover', 1500);
    expect(outcome.signal).toBeNull();
    expect(outcome.done!.heard).toBe(1);
    expect(outcome.done!.reported).toBeGreaterThan(0);
  }, 20_000);
});
