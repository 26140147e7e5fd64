/**
 * Issue 19.5 (kernel side): a real Session run through RunDisplays. EVALUATE operations carry a bounded
 * value preview, output operations name their outcome, and what the run prints lands inside the run
 * view between the operations it happened between (not after the finished view).
 */
import { describe, expect, it } from 'vitest';
import { AgentExecutor, Session, step } from '../../kernel/src/index.js';
import { VALUE_PREVIEW_CHARS, previewValue } from '../../kernel/src/core/operation.js';
import { installEffectAudit } from '../../kernel/src/harness/index.js';
import { RunDisplays } from '../../kernel/src/server/display/run-displays.js';
import type { KernelChannel } from '../../kernel/src/server/kernel/index.js';
import { ScriptedModel, toolCall } from '../../kernel/src/testing.js';
import { NighthawkMime } from '../../shared/mime.js';

type Bundle = Record<string, unknown>;

interface Op { operationId: string; kind: string; status: string; expression?: string; outcome?: string; valuePreview?: string }
interface Exec { operations: Op[]; streams?: Array<{ name: string; text: string; afterOperationId?: string }> }

function channel(): { channel: KernelChannel; shown: Bundle[] } {
  const shown: Bundle[] = [];
  return { shown, channel: { display: (bundle) => { shown.push(bundle as Bundle); }, requestInput: () => Promise.reject(new Error('no stdin')) } };
}

describe('run view: values, outcomes and printed output in time order', () => {
  it('shows EVALUATE values, the output outcome, and stdout between the operations', async () => {
    const model = new ScriptedModel((_m, info) => info.requestNumber === 1
      ? { toolCalls: [toolCall('nh_evaluate', { expression: 'shout("first")' }), toolCall('nh_evaluate', { expression: 'total(2, 40)' })] }
      : { toolCalls: [toolCall('nh_output', { result: { kind: 'pass' } })] });
    const session = new Session({ executor: new AgentExecutor({ model }) });
    const { shown, channel: ch } = channel();
    const detach = new RunDisplays(() => ch).attach(session.ledger);
    // process.stdout.write is what console.log reaches in the kernel (vitest replaces console itself).
    const print = (line: string): void => { process.stdout.write(`${line}\n`); };
    const refs = {
      shout: (s: string) => { print(`printed ${s}`); return s.toUpperCase(); },
      total: (a: number, b: number) => { process.stdout.write('printed second\n'); return { sum: a + b, parts: [a, b] }; },
    };
    const declared = { agent: async () => { print('before the step'); await step({ program: 'execute\nUse the helpers.', references: refs }); print('after the step'); } };
    const submission = session.submit('async function agent() {}');
    const { agent } = session.materialized(submission, declared);
    // The host installs its process-wide patches (stream callbacks among them) with its first run: read what
    // prints went through before this run once they are in place, as they are for every run after a first.
    installEffectAudit();
    const writeBefore = process.stdout.write;
    await agent!();
    detach();
    // The capture ends with the run: later prints go where they always went.
    expect(process.stdout.write).toBe(writeBefore);

    const last = shown.filter((b) => NighthawkMime.run in b).at(-1)!;
    const run = last[NighthawkMime.run] as { status: string; executions: Exec[]; streams?: Array<{ text: string; afterExecutionId?: string }> };
    expect(run.status).toBe('completed');
    const exec = run.executions[0]!;
    const [shoutOp, totalOp, outputOp] = exec.operations;
    expect(shoutOp!.valuePreview).toBe('"FIRST"');
    expect(totalOp!.valuePreview).toBe('{"sum":42,"parts":[2,40]}');
    expect(outputOp!.kind).toBe('output');
    expect(outputOp!.outcome).toBe('pass');
    expect(outputOp!.valuePreview).toBeUndefined();
    // Each print sits right after the operation that printed it... well, after the latest finished one:
    // "printed first" happened while shout ran (no operation finished yet in the step).
    expect(exec.streams).toEqual([
      { name: 'stdout', text: 'printed first\n' },
      { name: 'stdout', text: 'printed second\n', afterOperationId: shoutOp!.operationId },
    ]);
    // Run-level prints: before the first execution, and after it.
    expect(run.streams).toEqual([
      { name: 'stdout', text: 'before the step\n' },
      { name: 'stdout', text: 'after the step\n', afterExecutionId: expect.any(String) },
    ]);
    const text = String(last['text/plain']);
    expect(text).not.toContain('output output');
    expect(text).toContain('evaluate total(2, 40): completed = {"sum":42,"parts":[2,40]}');
    expect(text.indexOf('| printed first')).toBeLessThan(text.indexOf('evaluate shout'));
    expect(text.indexOf('| printed second')).toBeGreaterThan(text.indexOf('evaluate shout'));
    expect(text.indexOf('| printed second')).toBeLessThan(text.indexOf('evaluate total'));
    expect(text.indexOf('| after the step')).toBeGreaterThan(text.indexOf('output pass'));
  });

  it('bounds value previews and survives cycles, functions and bigints', () => {
    const cyclic: Record<string, unknown> = { name: 'loop' };
    cyclic.self = cyclic;
    expect(previewValue(cyclic)).toBe('{"name":"loop","self":"[Circular]"}');
    expect(previewValue(function named() {})).toBe('[Function named]');
    expect(previewValue(10n)).toBe('10n');
    expect(previewValue(undefined)).toBe('undefined');
    const long = previewValue('x'.repeat(5000));
    expect(long.length).toBe(VALUE_PREVIEW_CHARS);
    expect(long.endsWith('…')).toBe(true);
  });
});
