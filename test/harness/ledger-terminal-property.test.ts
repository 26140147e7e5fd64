/**
 * Property (seeds 001 and 002): over random compositions mixing Natural steps, dispatches, async
 * exports, capability calls, caller aborts and host termination with and without cessation,
 *  - every Natural execution and dispatch node has at most one terminal event,
 *  - exactly one whenever the run has ended,
 *  - and no event of a run follows its run.end.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { AgentExecutor, Runner, defineCapability, step, type CodeProposal, type LedgerEvent, type ModelMessage, type RunContext } from '../../kernel/src/index.js';
import { ScriptedModel, toolCall, type ScriptedResponse } from '../../kernel/src/testing.js';

type Plan = 'finish' | 'eval' | 'tool' | 'outside' | 'gated' | 'raise';
type Action =
  | { readonly kind: 'step'; readonly plan: Plan; readonly detached: boolean }
  | { readonly kind: 'dispatch-sync' }
  | { readonly kind: 'async-export'; readonly detached: boolean }
  | { readonly kind: 'capability'; readonly outside: boolean }
  | { readonly kind: 'throw' };

interface Scenario {
  readonly actions: readonly Action[];
  /** Macrotask ticks after start at which the host acts, or null for never. */
  readonly terminateAt: number | null;
  readonly ceases: boolean;
  readonly abortAt: number | null;
  /** Ticks after which the shared gate opens (null: only at the end of the scenario). */
  readonly gateAt: number | null;
}

const plans: Plan[] = ['finish', 'eval', 'tool', 'outside', 'gated', 'raise'];
const action: fc.Arbitrary<Action> = fc.oneof(
  fc.record({ kind: fc.constant('step' as const), plan: fc.constantFrom(...plans), detached: fc.boolean() }),
  fc.record({ kind: fc.constant('dispatch-sync' as const) }),
  fc.record({ kind: fc.constant('async-export' as const), detached: fc.boolean() }),
  fc.record({ kind: fc.constant('capability' as const), outside: fc.boolean() }),
  fc.record({ kind: fc.constant('throw' as const) }),
);
const tick = fc.option(fc.integer({ min: 0, max: 6 }), { nil: null });
const scenario: fc.Arbitrary<Scenario> = fc.record({
  actions: fc.array(action, { minLength: 1, maxLength: 6 }),
  terminateAt: tick,
  ceases: fc.boolean(),
  abortAt: tick,
  gateAt: tick,
});

const adder: CodeProposal = { language: 'typescript', intent: 'define-and-invoke', entry: 'add', args: [1, 2], source: 'export function add(a: number, b: number): number { return a + b; }' };
const slow: CodeProposal = {
  language: 'typescript',
  intent: 'define',
  source: 'export async function slow(): Promise<string> { return String(await wait({ target: "x" })); }',
  dependencies: [{ name: 'wait', kind: 'capability', type: '(waitRequest) => unknown' }],
};

const macrotask = () => new Promise<void>((r) => setImmediate(r));
const ticks = async (n: number) => {
  for (let i = 0; i < n; i++) await macrotask();
};

function planOf(messages: readonly ModelMessage[]): Plan {
  for (const m of messages) {
    const match = typeof m.content === 'string' ? /plan=(\w+)/.exec(m.content) : null;
    if (match) return match[1] as Plan;
  }
  return 'finish';
}

/** Checks the invariants for one run; `ended` demands exactly one terminal event per node. */
function checkLedger(events: readonly LedgerEvent[], runId: string): boolean {
  const own = events.filter((e) => e.runId === runId);
  const endIndex = own.findIndex((e) => e.kind === 'run.end');
  if (endIndex !== -1) expect(own.slice(endIndex + 1).map((e) => e.kind)).toEqual([]);
  expect(own.filter((e) => e.kind === 'run.end').length).toBeLessThanOrEqual(1);
  const started = new Map<string, 'execution.end' | 'dispatch.end'>();
  for (const e of own) {
    if (e.kind === 'execution.start') started.set(e.subjectId, 'execution.end');
    if (e.kind === 'dispatch.start') started.set(e.subjectId, 'dispatch.end');
  }
  for (const [subject, terminalKind] of started) {
    const terminals = own.filter((e) => e.kind === terminalKind && e.subjectId === subject).length;
    expect(terminals).toBeLessThanOrEqual(1);
    if (endIndex !== -1) expect(terminals, `${terminalKind} of ${subject} in an ended run`).toBe(1);
  }
  return endIndex !== -1;
}

async function runScenario(s: Scenario): Promise<void> {
  let openGate!: () => void;
  const gate = new Promise<void>((r) => (openGate = r));
  const wait = defineCapability({ name: 'wait', description: 'waits for the gate', request: z.object({ target: z.string() }), run: async () => (await gate, 'opened') });
  const lookup = defineCapability({ name: 'lookup', description: 'reversible', request: z.object({ target: z.string() }), run: ({ target }) => target });
  const publish = defineCapability({ name: 'publish', description: 'egress', request: z.object({ target: z.string() }), footprint: ['egress'], run: () => 'sent' });
  const model = new ScriptedModel(async (messages): Promise<ScriptedResponse> => {
    const answered = messages.some((m) => m.role === 'tool');
    if (answered) return { toolCalls: [toolCall('nh_output', { result: { kind: 'pass' } })] };
    switch (planOf(messages)) {
      case 'eval':
        return { toolCalls: [toolCall('nh_evaluate', { expression: '1 + 1' }), toolCall('nh_output', { result: { kind: 'pass' } })] };
      case 'tool':
        return { toolCalls: [toolCall('lookup', { target: 'a' }), toolCall('nh_output', { result: { kind: 'pass' } })] };
      case 'outside':
        return { toolCalls: [toolCall('publish', { target: 'a' }), toolCall('nh_output', { result: { kind: 'pass' } })] };
      case 'gated':
        await gate;
        return { toolCalls: [toolCall('nh_output', { result: { kind: 'pass' } })] };
      case 'raise':
        return { toolCalls: [toolCall('nh_output', { result: { kind: 'raise', raise_message: 'no' } })] };
      default:
        return { toolCalls: [toolCall('nh_output', { result: { kind: 'pass' } })] };
    }
  });
  const runner = new Runner({
    executor: new AgentExecutor({ model, maxRequestsPerStep: 5 }),
    termination: { terminate: async () => ({ ceased: s.ceases }) },
  });
  const controller = new AbortController();
  const composition = async (ctx: RunContext) => {
    const detached: Promise<unknown>[] = [];
    for (const [i, a] of s.actions.entries()) {
      const started = (async () => {
        switch (a.kind) {
          case 'step':
            return step({ program: `execute\nStep ${i} plan=${a.plan}.` });
          case 'dispatch-sync':
            return ctx.dispatch(adder);
          case 'async-export': {
            const { exports } = await ctx.dispatch(slow);
            return (exports.slow as () => Promise<string>)();
          }
          case 'capability':
            return ctx.invoke(a.outside ? 'publish' : 'lookup', { target: 'b' });
          case 'throw':
            throw new Error('composition failed');
        }
      })();
      const detach = (a.kind === 'step' || a.kind === 'async-export') && a.detached;
      if (detach) detached.push(started.catch(() => undefined));
      else if (a.kind === 'throw') await started;
      else await started.catch(() => undefined);
    }
    return 'done';
  };
  const handle = runner.start(composition, { grant: { capabilities: [wait, lookup, publish] }, signal: controller.signal });
  let settled = false;
  void handle.result.then(
    () => (settled = true),
    () => (settled = true),
  );
  for (let t = 0; t <= 8 && !settled; t++) {
    if (s.gateAt === t) openGate();
    if (s.abortAt === t) controller.abort(new Error('caller stop'));
    if (s.terminateAt === t) void handle.terminate('host stop');
    checkLedger(runner.ledger.events(), handle.runId);
    await macrotask();
  }
  openGate();
  await ticks(6);
  checkLedger(runner.ledger.events(), handle.runId);
  handle.finalize();
  await ticks(2);
  handle.finalize();
  const ended = checkLedger(runner.ledger.events(), handle.runId);
  // With every gate open all branches unwind, so the run always reaches its end in the end.
  expect(ended).toBe(true);
  expect(settled).toBe(true);
}

describe('property: terminal events of executions and dispatch nodes, and nothing after run.end', () => {
  it('holds over 1,000 random compositions', async () => {
    await fc.assert(fc.asyncProperty(scenario, runScenario), { numRuns: 1_000 });
  }, 120_000);
});
