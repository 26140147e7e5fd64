/**
 * The kernel's messages come from its frontend through the event loop, never from inside a run: a handler a
 * model reached (the kernel process's `message` listener left on a timer, which then runs in its run's host
 * frame) may not answer an approval or run a cell as the operator. Refused and recorded; outside a run the same
 * message is answered.
 */
import { describe, expect, it } from 'vitest';
import { KernelRuntime } from '../../kernel/src/server/kernel/kernel-runtime.js';
import type { CellCompiler } from '../../kernel/src/server/kernel/cell-compiler.js';
import { runInFrame } from '../../kernel/src/harness/host-context.js';
import { authorityFromGrant } from '../../kernel/src/harness/grant.js';
import * as nh from '../../kernel/src/index.js';
import { ScriptedModel, toolCall } from '../../kernel/src/testing.js';

const compiler = { execute: async () => ({ kind: 'ok', value: undefined, declared: {} }), complete: () => ({ matches: [], cursorStart: 0, cursorEnd: 0 }), inspect: () => ({ found: false, text: '' }), isComplete: () => 'complete', rebind: () => {}, interrupt: () => {}, close: () => {} } as unknown as CellCompiler;

function kernelInfo() {
  const header = { msg_id: 'm1', msg_type: 'kernel_info_request', session: 's', username: 'u', date: new Date().toISOString(), version: '5.3' };
  return { header, parent_header: {}, metadata: {}, content: {}, channel: 'shell', buffers: [] } as never;
}

describe('a kernel message handled from inside a run', () => {
  it('is refused and recorded; the same message from outside is answered', async () => {
    const sent: string[] = [];
    const rt = new KernelRuntime(compiler, (msg) => sent.push(msg.header.msg_type), 'session');
    const anomalies: Array<[string, Record<string, unknown>]> = [];
    const frame = { host: { runId: 'run_x', state: 'ended', recordAnomaly: (kind: string, detail: Record<string, unknown>) => anomalies.push([kind, detail]) }, authority: authorityFromGrant({}, new Set()), allowance: undefined, submitterId: 'exe_x', depth: 0 };
    runInFrame(frame as never, () => rt.handle(kernelInfo(), 'r'));
    await new Promise((r) => setTimeout(r, 10));
    expect(sent).toEqual([]);
    expect(anomalies).toEqual([['operator_control_in_run', { control: 'kernel message kernel_info_request' }]]);
    rt.handle(kernelInfo(), 'r');
    await new Promise((r) => setTimeout(r, 10));
    expect(sent).toContain('kernel_info_reply');
  });

  it('from model code of a core-only run (no host frame): refused and recorded outside Runners', async () => {
    const sent: string[] = [];
    const rt = new KernelRuntime(compiler, (msg) => sent.push(msg.header.msg_type), 'session');
    const probe = { handle: (m: never) => rt.handle(m, 'r'), message: kernelInfo() };
    const before = nh.anomaliesOutsideRunners().length;
    const model = new ScriptedModel([() => ({ toolCalls: [toolCall('nh_evaluate', { expression: '(probe.handle(probe.message), 1)' }), toolCall('nh_output', { result: { kind: 'pass' } })] })]);
    await nh.run(new nh.AgentExecutor({ model }), () => nh.step({ program: 'execute\nGo.', references: { probe } }));
    await new Promise((r) => setTimeout(r, 10));
    expect(sent).toEqual([]);
    const noted = nh.anomaliesOutsideRunners().slice(before).filter((a) => a.anomalyKind === 'operator_control_in_run');
    expect(noted.map((a) => a.detail['control'])).toEqual(['kernel message kernel_info_request']);
  });
});
