// Issue 15.9: the README tour's first example, pasted into a notebook cell as it is written, shows the refusal
// inline; `nh.displayLedger(...);` as the README writes it shows the ledger and no stray count.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { NighthawkMime } from '../../shared/mime.js';
import { repoRoot as root, startSessionKernelServer } from '../support/kernel-server.js';
import { kernelSuite } from '../support/kernel-suite.js';
import { runCell } from '../support/kernel-client.js';

const readme = readFileSync(path.join(root, 'README.md'), 'utf8');
const tour = readme.slice(readme.indexOf('## A short tour'));
const FIRST_EXAMPLE = /```ts\n([\s\S]*?)```/.exec(tour)![1]!;
const DISPLAY_LEDGER = /^nh\.displayLedger\(.*\);$/m.exec(readme)![0];

const suite = kernelSuite(startSessionKernelServer);

describe("the README tour's first example in a notebook cell", () => {
  test('shows the run inline with the refused call, its reason and guidance, and the value', async () => {
    const run = await runCell(suite.kernel, FIRST_EXAMPLE);
    expect(run.error).toBeUndefined();
    expect(run.result?.['text/plain']).toBe('2');
    const runs = run.displays.map((m) => (m.content as { data: Record<string, unknown> }).data[NighthawkMime.run]).filter(Boolean);
    const last = runs.at(-1) as { status: string; functionName: string; executions: { operations: { status: string; rejection?: { reason: string; guidance?: string } }[] }[] };
    expect(last).toMatchObject({ status: 'completed', functionName: 'askForTwo' });
    expect(last.executions[0]!.operations[0]).toMatchObject({ status: 'rejected', rejection: { reason: 'This helper is unavailable.', guidance: 'Evaluate 1 + 1 instead.' } });
  });

  test('`nh.displayLedger(...);` as the README writes it displays the ledger and no stray count', async () => {
    const run = await runCell(suite.kernel, DISPLAY_LEDGER);
    expect(run.error).toBeUndefined();
    expect(run.result).toBeUndefined();
    const ledger = run.displays.map((m) => (m.content as { data: Record<string, unknown> }).data[NighthawkMime.ledger]).find(Boolean) as { entries: { status?: string }[] };
    expect(ledger.entries.map((e) => e.status)).toContain('rejected');
  });

  test('without the semicolon the value is shown, as in IPython', async () => {
    const run = await runCell(suite.kernel, DISPLAY_LEDGER.slice(0, -1));
    expect(run.result?.['text/plain']).toMatch(/^\d+$/);
  });
});
