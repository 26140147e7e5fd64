/**
 * Seeds 000 and 001 on what ends a Natural step: rejected perimeter effects, host stops, inspection
 * failures and exhausted allocation are terminal; a throwing argument validator fails only its
 * operation. Each test asserts the run's exact ledger sequence and the caller's typed result.
 */
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  AllocationExhaustedError,
  CapabilityRefusedError,
  InMemoryPerimeterAuditStore,
  InspectorDeadlineError,
  NaturalExecutionError,
  accept,
  Runner,
  RunTerminatedError,
  StepAbortedError,
  defineCapability,
  evaluateExpression,
  Pass,
  step,
  type LedgerEvent,
  type StepExecutor,
  type TerminationService,
} from '../../kernel/src/index.js';
import { toolCall } from '../../kernel/src/testing.js';
import { finish, scriptedRunner, trackedCapability } from './support.js';

/** `kind:status` of every event of one run, in ledger order. */
const sequence = (events: readonly LedgerEvent[]) => events.map((e) => (e.status === undefined ? e.kind : `${e.kind}:${e.status}`));
const operationData = (e: LedgerEvent) => e.data as { request: { operationId: string; expression?: string }; blockedByOperationId?: string; abortReason?: string; failure?: { errorClass: string; message: string } };

/** Resolves to 'hung' when `promise` has not settled within `ms` (so a regression fails instead of hanging). */
const within = <T>(promise: Promise<T>, ms: number): Promise<T | 'hung'> =>
  Promise.race([promise, new Promise<'hung'>((r) => setTimeout(() => r('hung'), ms))]);

describe('seed 001: "Explicit step aborts, rejected perimeter effects, inspection failures, and notification failures remain terminal."', () => {
  it('a model tool call whose footprint is outside the effective policy ends the step; its siblings are skipped', async () => {
    const { capability, calls } = trackedCapability('publish', ['egress']);
    const { runner, model } = scriptedRunner([
      () => ({ toolCalls: [toolCall('publish', { target: 'x' }), toolCall('nh_evaluate', { expression: '1 + 1' }), finish()] }),
      () => ({ toolCalls: [finish()] }),
    ]);
    const error = await runner.run(async () => step({ program: 'execute\nPublish.' }), { grant: { capabilities: [capability] } }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NaturalExecutionError);
    expect((error as NaturalExecutionError).failure).toBe('perimeter_refused');
    expect(model.requestCount).toBe(1);
    expect(calls).toEqual([]);
    const events = runner.ledger.events();
    expect(sequence(events)).toEqual([
      'run.entry',
      'execution.start',
      'capability.refused:footprint-outside-policy',
      'operation:aborted',
      'operation:skipped',
      'operation:skipped',
      'execution.end:failed',
      'run.end:failed',
    ]);
    const [refused, skippedA, skippedB] = events.filter((e) => e.kind === 'operation').map(operationData);
    expect(refused!.abortReason).toContain('rejected perimeter effect');
    expect([skippedA!.blockedByOperationId, skippedB!.blockedByOperationId]).toEqual([refused!.request.operationId, refused!.request.operationId]);
  });

  it('a refused direct file write in an expression ends the step even when the expression catches the refusal', async () => {
    const target = join(mkdtempSync(join(tmpdir(), 'nh-perimeter-')), 'out.txt');
    const fs = await import('node:fs');
    const expression = `(() => { try { fs.writeFileSync(${JSON.stringify(target)}, "x"); return "wrote"; } catch { return "swallowed"; } })()`;
    const { runner, model } = scriptedRunner([() => ({ toolCalls: [toolCall('nh_evaluate', { expression }), finish()] }), () => ({ toolCalls: [finish()] })]);
    const error = await runner.run(async () => step({ program: 'execute\nWrite.' }), { grant: { references: { fs } } }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NaturalExecutionError);
    expect((error as NaturalExecutionError).failure).toBe('perimeter_refused');
    expect(existsSync(target)).toBe(false);
    expect(model.requestCount).toBe(1);
    expect(sequence(runner.ledger.events())).toEqual([
      'run.entry',
      'execution.start',
      'trace.anomaly:unmediated_perimeter_effect',
      'operation:aborted',
      'operation:skipped',
      'execution.end:failed',
      'run.end:failed',
    ]);
  });

  it('an inspector that misses its host deadline is an inspection failure: terminal and recorded', async () => {
    const { runner, model } = scriptedRunner([() => ({ toolCalls: [toolCall('nh_evaluate', { expression: '1' }), finish()] })], { inspectorDeadlineMs: 50 });
    const outcome = await within(
      runner.run(async () => step({ program: 'execute\nEvaluate.' }), { oversight: { inspectOperation: () => new Promise(() => undefined) } }).catch((e: unknown) => e),
      3_000,
    );
    expect(outcome).toBeInstanceOf(NaturalExecutionError);
    expect((outcome as NaturalExecutionError).failure).toBe('inspection_failed');
    expect(model.requestCount).toBe(1);
    const events = runner.ledger.events();
    expect(sequence(events)).toEqual([
      'run.entry',
      'execution.start',
      'trace.anomaly:inspector_deadline_exceeded',
      'operation:aborted',
      'operation:skipped',
      'execution.end:failed',
      'run.end:failed',
    ]);
    expect(operationData(events[3]!).abortReason).toContain(new InspectorDeadlineError({ hook: 'inspectOperation', deadlineMs: 50, executionId: 'x' }).name);
  });

  it('a step-commit inspector that misses its host deadline fails the step and nothing is committed', async () => {
    const { runner } = scriptedRunner([() => ({ toolCalls: [toolCall('nh_assign', { target_path: 'out', expression: '5' }), finish()] })], { inspectorDeadlineMs: 50 });
    const outcome = await within(
      runner.run(async () => step({ program: 'execute\nSet <:out>.', writes: { out: z.number() } }), { oversight: { inspectStepCommit: () => new Promise(() => undefined) } }).catch((e: unknown) => e),
      3_000,
    );
    expect((outcome as NaturalExecutionError).failure).toBe('inspection_failed');
    expect(sequence(runner.ledger.events())).toEqual([
      'run.entry',
      'execution.start',
      'operation:completed',
      'operation:completed',
      'trace.anomaly:inspector_deadline_exceeded',
      'execution.end:failed',
      'run.end:failed',
    ]);
    expect(runner.ledger.select({ kind: 'execution.end' })[0]!.data).toMatchObject({ committed: {} });
  });

  it('terminate() does not wait for a hung inspector: the step ends, and the run ends once cessation is established', async () => {
    const { runner } = scriptedRunner([() => ({ toolCalls: [toolCall('nh_evaluate', { expression: '1' }), finish()] })]);
    let inspecting!: () => void;
    const entered = new Promise<void>((r) => (inspecting = r));
    const hung = { inspectOperation: () => (inspecting(), new Promise<never>(() => undefined)) };
    const handle = runner.start(async () => step({ program: 'execute\nEvaluate.' }), { oversight: hung });
    await entered;
    expect(await handle.terminate('operator stop')).toBe(false);
    const error = await within(handle.result.catch((e: unknown) => e), 3_000);
    expect(error).toBeInstanceOf(RunTerminatedError);
    expect((error as RunTerminatedError).ceased).toBe(false);
    expect(handle.finalize()).toBe(true);
    expect(sequence(runner.ledger.events())).toEqual(['run.entry', 'execution.start', 'operation:aborted', 'operation:skipped', 'execution.end:failed', 'run.end:terminated']);

    const ceasing: TerminationService = { terminate: async () => ({ ceased: true }) };
    const second = scriptedRunner([() => ({ toolCalls: [toolCall('nh_evaluate', { expression: '1' }), finish()] })], { termination: ceasing });
    let again!: () => void;
    const enteredAgain = new Promise<void>((r) => (again = r));
    const handle2 = second.runner.start(async () => step({ program: 'execute\nEvaluate.' }), { oversight: { inspectOperation: () => (again(), new Promise<never>(() => undefined)) } });
    await enteredAgain;
    expect(await handle2.terminate('operator stop')).toBe(true);
    await expect(handle2.result).rejects.toMatchObject({ ceased: true });
    // The stop reaches the hung inspection at once; whether the step unwinds before the mechanism
    // reports is scheduling, but the execution has exactly one terminal event before the run end.
    const seq = sequence(second.runner.ledger.events());
    expect(seq.slice(0, 2)).toEqual(['run.entry', 'execution.start']);
    expect(seq.at(-1)).toBe('run.end:terminated');
    expect(seq.filter((s) => s.startsWith('execution.end'))).toHaveLength(1);
    expect(seq.slice(2, -1).every((s) => ['operation:aborted', 'operation:skipped', 'execution.end:failed', 'execution.end:terminated'].includes(s))).toBe(true);
  });

  it('a perimeter effect whose attempt record was still being written when the run was terminated is not attempted', async () => {
    const effects: string[] = [];
    let attempting!: () => void;
    const writing = new Promise<void>((r) => (attempting = r));
    class SlowStore extends InMemoryPerimeterAuditStore {
      override async recordAttempt(attempt: Parameters<InMemoryPerimeterAuditStore['recordAttempt']>[0]): Promise<void> {
        attempting();
        await new Promise((r) => setTimeout(r, 50));
        await super.recordAttempt(attempt);
      }
    }
    const store = new SlowStore();
    const send = defineCapability({ name: 'send_report', description: 'egress', footprint: ['egress'], request: z.object({ target: z.string() }), run: (request) => effects.push(request.target) });
    const ceasing: TerminationService = { terminate: async () => ({ ceased: true }) };
    const { runner } = scriptedRunner([], { platformPolicy: ['egress'], perimeterAuditStore: store, termination: ceasing });
    const handle = runner.start(async (ctx) => {
      const module = await ctx.dispatch({ language: 'javascript', intent: 'define', source: `export async function go() { return await send_report({ target: 'x' }); }`, dependencies: [{ name: 'send_report', kind: 'capability', type: send.signature }] });
      return (module.exports['go'] as () => Promise<unknown>)();
    }, { grant: { capabilities: [send] } });
    await writing;
    expect(await handle.terminate('operator stop')).toBe(true);
    await expect(handle.result).rejects.toMatchObject({ ceased: true });
    await new Promise((r) => setTimeout(r, 100));
    expect(effects).toEqual([]);
    expect(store.list().map((e) => e.status)).toEqual(['failed']);
    expect(runner.anomalies.map((a) => a.anomalyKind)).toEqual(['effect_after_run_stopped']);
    expect(sequence(runner.ledger.events()).at(-1)).toBe('run.end:terminated');
  });
});

describe('seed 000: "An ordinary exception raised by an expression, helper, argument validator, native tool, or child Natural function fails only its operation."', () => {
  const exploding = () =>
    defineCapability({
      name: 'lookup',
      description: 'a lookup whose validator throws',
      request: z.object({ target: z.string() }).refine(() => {
        throw new Error('validator exploded');
      }),
      run: () => 'never',
    });

  it('a zod refinement that throws fails only its tool operation; later calls in the same response still run', async () => {
    const { runner } = scriptedRunner([() => ({ toolCalls: [toolCall('lookup', { target: 'a' }), toolCall('nh_evaluate', { expression: '40 + 2' }), finish()] })]);
    const value = await runner.run(async () => (await step({ program: 'execute\nLook up.' })).kind, { grant: { capabilities: [exploding()] } });
    expect(value).toBe('pass');
    const events = runner.ledger.events();
    expect(sequence(events)).toEqual(['run.entry', 'execution.start', 'operation:failed', 'operation:completed', 'operation:completed', 'execution.end:completed', 'run.end:completed']);
    expect(operationData(events[2]!).failure).toEqual({ errorClass: 'Error', message: 'validator exploded' });
  });

  it('a throwing request validator on a direct capability call is a typed refusal, recorded', async () => {
    const { runner } = scriptedRunner([]);
    const error = await runner.run((ctx) => ctx.invoke('lookup', { target: 'a' }), { grant: { capabilities: [exploding()] } }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CapabilityRefusedError);
    expect((error as CapabilityRefusedError).reason).toBe('invalid-request');
    expect(sequence(runner.ledger.events())).toEqual(['run.entry', 'capability.refused:invalid-request', 'run.end:failed']);
  });
});

describe('seed 000: "Host stops and exhausted limits remain effective even if another output candidate was accepted earlier in that response."', () => {
  it('a host stop after an accepted output in the same response ends the step as aborted; nothing is committed', async () => {
    const controller = new AbortController();
    const stopHost = () => controller.abort(new Error('host stop'));
    const { runner } = scriptedRunner([() => ({ toolCalls: [finish(), toolCall('nh_evaluate', { expression: 'stopHost()' })] })]);
    const error = await runner
      .run(async () => step({ program: 'execute\nFinish.' }), { grant: { references: { stopHost } }, signal: controller.signal })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NaturalExecutionError);
    expect((error as NaturalExecutionError).failure).toBe('aborted');
    expect((error as NaturalExecutionError).cause).toBeInstanceOf(StepAbortedError);
    expect(sequence(runner.ledger.events())).toEqual(['run.entry', 'execution.start', 'operation:completed', 'operation:completed', 'execution.end:failed', 'run.end:failed']);
    // Seed 000: a StepAbortedError and a failed terminal record; the stop is the recorded failure.
    expect(runner.ledger.select({ kind: 'execution.end' })[0]!.data).toMatchObject({ committed: {}, failure: 'aborted' });
  });

  it('an exhausted operation allocation is effective although an output was accepted earlier in that response', async () => {
    const { runner } = scriptedRunner([() => ({ toolCalls: [finish(), toolCall('nh_evaluate', { expression: '1' })] })]);
    const error = await runner.run(async () => step({ program: 'execute\nFinish.' }), { allocation: { maxOperationsPerResponse: 1 } }).catch((e: unknown) => e);
    expect((error as NaturalExecutionError).failure).toBe('allocation_exhausted');
    expect(sequence(runner.ledger.events())).toEqual([
      'run.entry',
      'execution.start',
      'operation:completed',
      'allocation.exhausted:operations-per-response',
      'operation:aborted',
      'execution.end:failed',
      'run.end:failed',
    ]);
  });

  it('operations beyond the per-response allocation are refused with a typed allocation_exhausted record', async () => {
    let ran = 0;
    const tick = () => ++ran;
    const calls = Array.from({ length: 1_000 }, () => toolCall('nh_evaluate', { expression: 'tick()' }));
    const { runner } = scriptedRunner([() => ({ toolCalls: [...calls, finish()] })]);
    const error = await runner.run(async () => step({ program: 'execute\nTick.' }), { grant: { references: { tick } }, allocation: { maxOperationsPerResponse: 3 } }).catch((e: unknown) => e);
    expect(ran).toBe(3);
    expect(error).toBeInstanceOf(NaturalExecutionError);
    expect((error as NaturalExecutionError).failure).toBe('allocation_exhausted');
    const seq = sequence(runner.ledger.events());
    expect(seq.slice(0, 7)).toEqual(['run.entry', 'execution.start', 'operation:completed', 'operation:completed', 'operation:completed', 'allocation.exhausted:operations-per-response', 'operation:aborted']);
    expect(seq.slice(7, -2).every((s) => s === 'operation:skipped')).toBe(true);
    expect(seq.slice(7, -2)).toHaveLength(997);
    expect(seq.slice(-2)).toEqual(['execution.end:failed', 'run.end:failed']);
  });

  it('the default allocation bounds the operations of one response', async () => {
    let ran = 0;
    const tick = () => ++ran;
    const calls = Array.from({ length: 2_000 }, () => toolCall('nh_evaluate', { expression: 'tick()' }));
    const { runner } = scriptedRunner([() => ({ toolCalls: [...calls, finish()] })]);
    const error = await runner.run(async () => step({ program: 'execute\nTick.' }), { grant: { references: { tick } } }).catch((e: unknown) => e);
    expect((error as NaturalExecutionError).failure).toBe('allocation_exhausted');
    expect(ran).toBeLessThan(2_000);
    expect(runner.ledger.select({ kind: 'allocation.exhausted' }).map((e) => e.status)).toEqual(['operations-per-response']);
  });

  it('operations of a whole run are admitted against the allocation across responses', async () => {
    let ran = 0;
    const tick = () => ++ran;
    const three = () => ({ toolCalls: [1, 2, 3].map(() => toolCall('nh_evaluate', { expression: 'tick()' })) });
    const { runner, model } = scriptedRunner([three, three, three]);
    const error = await runner.run(async () => step({ program: 'execute\nTick.' }), { grant: { references: { tick } }, allocation: { maxOperations: 4 } }).catch((e: unknown) => e);
    expect(ran).toBe(4);
    expect(model.requestCount).toBe(2);
    expect((error as NaturalExecutionError).cause).toBeInstanceOf(StepAbortedError);
    expect((error as NaturalExecutionError).failure).toBe('allocation_exhausted');
    expect(sequence(runner.ledger.events())).toEqual([
      'run.entry',
      'execution.start',
      'operation:completed',
      'operation:completed',
      'operation:completed',
      'operation:completed',
      'allocation.exhausted:operations',
      'operation:aborted',
      'operation:skipped',
      'execution.end:failed',
      'run.end:failed',
    ]);
    expect(new AllocationExhaustedError({ resource: 'operations', runId: 'r' }).kind).toBe('allocation_exhausted');
  });
});

describe('seed 000: every proposed operation gets exactly one terminal record, also one cut off by a host stop', () => {
  it('with the agent executor, the siblings after a host stop are skipped and point at a recorded operation', async () => {
    const controller = new AbortController();
    const stopHost = () => controller.abort(new Error('host stop'));
    const { runner } = scriptedRunner([() => ({ toolCalls: [toolCall('nh_evaluate', { expression: 'stopHost()' }), toolCall('nh_evaluate', { expression: '2' }), finish()] })]);
    const error = await runner.run(async () => step({ program: 'execute\nStop.' }), { grant: { references: { stopHost } }, signal: controller.signal }).catch((e: unknown) => e);
    expect((error as NaturalExecutionError).failure).toBe('aborted');
    const events = runner.ledger.events();
    expect(sequence(events)).toEqual(['run.entry', 'execution.start', 'operation:completed', 'operation:skipped', 'operation:skipped', 'execution.end:failed', 'run.end:failed']);
    const ops = events.filter((e) => e.kind === 'operation').map(operationData);
    const recorded = new Set(ops.map((o) => o.request.operationId));
    expect(recorded.size).toBe(3);
    for (const o of ops) if (o.blockedByOperationId !== undefined) expect(recorded.has(o.blockedByOperationId)).toBe(true);
  });

  it('with the direct operation API, an operation proposed after the stop is recorded aborted and raises the stop', async () => {
    const controller = new AbortController();
    let thrown: unknown;
    const executor: StepExecutor = {
      async runStep({ stepContext }) {
        await evaluateExpression(stepContext, '1');
        controller.abort(new Error('host stop'));
        try {
          await evaluateExpression(stepContext, '2');
        } catch (error) {
          thrown = error;
        }
        return { outcome: Pass };
      },
    };
    const runner = new Runner({ executor, acceptsAggregateExecutorAccounting: true });
    const error = await runner.run(async () => step({ program: 'execute\nStop.' }), { signal: controller.signal }).catch((e: unknown) => e);
    expect(thrown).toBeInstanceOf(StepAbortedError);
    expect((error as NaturalExecutionError).failure).toBe('aborted');
    const events = runner.ledger.events();
    expect(sequence(events)).toEqual(['run.entry', 'execution.start', 'operation:completed', 'operation:aborted', 'execution.end:failed', 'run.end:failed']);
    expect(operationData(events[3]!).abortReason).toContain('host stop');
  });
});

describe('seed 001: "The host\'s step-commit inspector admits the validated candidate before assignment and refuses an execution terminated meanwhile, so nothing is assigned"', () => {
  // Generated code an expression started without awaiting: 30 ms later it attempts an effect the policy refuses,
  // which ends the step while the application's inspector is still deciding.
  const LATER = `
export async function later(): Promise<string> {
  await new Promise((r) => setTimeout(r, 30));
  try { await publish({ target: 'x' }); } catch { return 'refused'; }
  return 'sent';
}`;
  const slowly = <T>(value: T) => new Promise<T>((r) => setTimeout(() => r(value), 60));

  async function terminatedWhileInspecting(second: ReturnType<typeof toolCall>, oversight: Parameters<Runner['run']>[1]) {
    const { capability, calls } = trackedCapability('publish', ['egress']);
    const { runner } = scriptedRunner([() => ({ toolCalls: [toolCall('nh_evaluate', { expression: 'void later(), 1' }), second, finish()] }), () => ({ toolCalls: [finish()] })]);
    const effects: string[] = [];
    const error = await runner
      .run(
        async (ctx) => {
          const module = await ctx.dispatch({ language: 'typescript', intent: 'define', source: LATER, dependencies: [{ name: 'publish', kind: 'capability', type: capability.signature }] });
          const values = { later: module.exports['later'], sideEffect: () => effects.push('body ran'), x: 0 };
          return step({ program: 'execute\nSet <:x>.', writes: { x: z.number() }, values });
        },
        { ...oversight, grant: { capabilities: [capability] } },
      )
      .catch((e: unknown) => e);
    return { runner, error, effects, calls };
  }

  it('a commit the application accepts after a refused perimeter effect ended the execution: nothing committed, the execution aborted', async () => {
    const { runner, error, calls } = await terminatedWhileInspecting(toolCall('nh_assign', { target_path: 'x', expression: '7' }), { oversight: { inspectStepCommit: () => slowly(accept()) } });
    expect(error).toBeInstanceOf(NaturalExecutionError);
    expect((error as NaturalExecutionError).failure).toBe('perimeter_refused');
    expect(calls).toEqual([]);
    const end = runner.ledger.select({ kind: 'execution.end' });
    expect(end.map((e) => e.status)).toEqual(['failed']);
    expect(end[0]!.data).toMatchObject({ committed: {}, failure: 'perimeter_refused' });
  });

  it('an operation the application accepts after a refused perimeter effect ended the execution: its body never runs, its record says aborted', async () => {
    const { runner, error, effects } = await terminatedWhileInspecting(toolCall('nh_evaluate', { expression: 'sideEffect()' }), {
      oversight: { inspectOperation: (request) => (request.kind === 'evaluate' && request.expression === 'sideEffect()' ? slowly(accept()) : accept()) },
    });
    expect((error as NaturalExecutionError).failure).toBe('perimeter_refused');
    expect(effects).toEqual([]);
    const side = runner.ledger.select({ kind: 'operation' }).find((e) => operationData(e).request.expression === 'sideEffect()')!;
    expect(side.status).toBe('aborted');
    expect(operationData(side).abortReason).toContain('rejected perimeter effect');
  });
});

