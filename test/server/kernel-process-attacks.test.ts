/**
 * Model code in a web kernel's runs and the kernel process itself. The kernel talks to the server over Node's
 * IPC channel (`process.send`): a forged message would reach the server as the kernel's own (a display in the
 * notebook, a "fatal" that ends the kernel), and `process.disconnect()` would end the kernel. `console.clear()`
 * clears the cell's output, which holds its runs' inline views. Each is refused and recorded, the kernel keeps
 * running, and the kernel's own messages (and the operator's own clear) still work.
 */
import { describe, expect, test, vi } from 'vitest';
import { startBuiltSessionKernelServer } from '../support/kernel-server.js';
import { kernelSuite } from '../support/kernel-suite.js';
import { runCell } from '../support/kernel-client.js';
import { RESTART_AFTER_MS } from '../../kernel/src/server/kernel/interrupt-escalation.js';

// The kernel runs from dist/, as `npm start` runs it (see startBuiltSessionKernelServer).
const suite = kernelSuite(startBuiltSessionKernelServer);

const ATTACKS = [
  ['a forged fatal message', "process.send({ kind: 'fatal', message: 'forged by the model' })"],
  ['a forged display in the notebook', "process.send({ kind: 'message', route: 'shell', msg: { header: { msg_type: 'display_data' }, content: { data: { 'text/plain': 'forged' } } } })"],
  ['disconnecting the channel', 'process.disconnect()'],
] as const;

/** A cell that imports the library and configures the Session with a model that evaluates `expression`, then passes. */
function modelEvaluating(expression: string): string {
  return `import * as nh from "nighthawk-ts";
import { ScriptedModel, toolCall } from "nighthawk-ts/testing";
nh.activeSession()!.configure({ executor: new nh.AgentExecutor({ model: new ScriptedModel([
  () => ({ toolCalls: [toolCall("nh_evaluate", { expression: ${JSON.stringify(expression)} })] }),
  () => ({ toolCalls: [toolCall("nh_output", { result: { kind: "pass" } })] }),
]) }) });`;
}

/** The newest anomaly in the Session's ledger names `effect`, and the kernel still answers a cell. */
async function expectRecordedAndAlive(effect: string): Promise<void> {
  const recorded = await runCell(suite.kernel, 'nh.activeSession()!.ledger.select({ kind: "trace.anomaly" }).map((e) => e.data.effect).at(-1)');
  expect(recorded.result?.['text/plain']).toBe(`'${effect}'`);
  const alive = await runCell(suite.kernel, '40 + 2');
  expect(alive.result?.['text/plain']).toBe('42');
}

describe('model code and the kernel process (its IPC channel, its cell output)', () => {
  for (const [name, expression] of ATTACKS) {
    test(`${name} from a model expression is refused and recorded; the kernel keeps running`, async () => {
      const setup = await runCell(
        suite.kernel,
        `${modelEvaluating(expression)}
async function attempt() { return (await nh.step({ program: "execute\\nGo." })).kind; }`,
      );
      expect(setup.error).toBeUndefined();
      const run = await runCell(suite.kernel, 'await attempt().catch((e) => e.failure)');
      expect(run.result?.['text/plain']).toBe("'perimeter_refused'");
      // The forged display never reached the client (the run view quotes the expression, so match whole data).
      expect(run.iopub.map((m) => (m.content as { data?: Record<string, unknown> }).data?.['text/plain'])).not.toContain('forged');
      await expectRecordedAndAlive(expression.slice(0, expression.indexOf('(')));
    }, 60_000);
  }

  test('the same from generated code a SessionFunction dispatches is refused and recorded; the kernel keeps running', async () => {
    const define = await runCell(
      suite.kernel,
      `async function generate() {
  const out = await nh.currentDispatcher().dispatch({ language: "javascript", intent: "define-and-invoke", entry: "leak", source: "export function leak() { process.send({ kind: 'fatal', message: 'forged by generated code' }); return 1; }", dependencies: [] });
  return out.invocation.value;
}`,
    );
    expect(define.error).toBeUndefined();
    const run = await runCell(suite.kernel, 'await generate().catch((e) => e.name)');
    expect(run.result?.['text/plain']).toBe("'UnmediatedPerimeterEffectError'");
    await expectRecordedAndAlive('process.send');
  }, 60_000);

  // console.clear() in a cell clears its output; from model code it would erase the run's inline view (its
  // refusals and terminal status) from the notebook.
  test("console.clear() from a model expression is refused and recorded; the cell's run view stays", async () => {
    const setup = await runCell(
      suite.kernel,
      `${modelEvaluating('console.clear()')}
async function attempt() { return (await nh.step({ program: "execute\\nGo." })).kind; }`,
    );
    expect(setup.error).toBeUndefined();
    const run = await runCell(suite.kernel, 'await attempt()');
    expect(run.result?.['text/plain']).toBe("'pass'");
    expect(run.iopub.map((m) => m.header.msg_type)).not.toContain('clear_output');
    const recorded = await runCell(suite.kernel, 'nh.activeSession()!.ledger.select({ kind: "trace.anomaly" }).map((e) => [e.status, e.data.control]).at(-1)');
    expect(recorded.result?.['text/plain']).toBe("[ 'operator_control_in_run', 'console.clear' ]");
    // The operator's own cell still clears.
    const cleared = await runCell(suite.kernel, 'console.clear()');
    expect(cleared.iopub.map((m) => m.header.msg_type)).toContain('clear_output');
  }, 60_000);

  // The same two controls from the other places code runs inside a run: generated code a SessionFunction
  // dispatches, and the SessionFunction's own body (operator code, but inside the run it started).
  const INSIDE_RUN = [
    ['generated code', 'console.clear', 'const out = await nh.currentDispatcher().dispatch({ language: "javascript", intent: "define-and-invoke", entry: "wipe", source: "export function wipe() { console.clear(); return 1; }", dependencies: [] }); return out.invocation.value;'],
    ['a SessionFunction body', 'console.clear', 'console.clear(); return 1;'],
    ['a SessionFunction body', 'process.send', "process.send({ kind: 'fatal', message: 'forged by the body' }); return 1;"],
  ] as const;
  for (const [place, control, body] of INSIDE_RUN) {
    test(`${control} from ${place} is refused and recorded; nothing reaches the client and the kernel keeps running`, async () => {
      const define = await runCell(suite.kernel, `import * as nh from "nighthawk-ts";\nasync function inside() { ${body} }`);
      expect(define.error).toBeUndefined();
      const run = await runCell(suite.kernel, 'await inside().catch((e) => e.name)');
      expect(run.result?.['text/plain']).toBe(control === 'console.clear' ? "'OperatorControlError'" : "'UnmediatedPerimeterEffectError'");
      expect(run.iopub.map((m) => m.header.msg_type)).not.toContain('clear_output');
      const recorded = await runCell(suite.kernel, 'nh.activeSession()!.ledger.select({ kind: "trace.anomaly" }).map((e) => e.data.control ?? e.data.effect).at(-1)');
      expect(recorded.result?.['text/plain']).toBe(`'${control}'`);
      const alive = await runCell(suite.kernel, '40 + 2');
      expect(alive.result?.['text/plain']).toBe('42');
    }, 60_000);
  }
});

/**
 * A loop queued as a microtask blocks the kernel until the interrupt watchdog stops it, and stopping it drops every
 * microtask queued behind it: the continuation the cell (and its run) would have ended by among them. Inside a run
 * (async hooks enabled) stopping it may abort Node instead, and the kernel is restarted (interrupt-watchdog.ts).
 * Either way the interrupted cell ends and says how, and the kernel answers: never hung, from a model expression,
 * from generated code a SessionFunction dispatches, and from a SessionFunction body. (The same loop queued by an
 * operator's cell outside any run is stopped with the kernel's state kept: interrupt-before-start.test.ts.)
 */
describe('a microtask loop from inside a run, interrupted', () => {
  const LOOP = 'Promise.resolve().then(() => { for (;;) {} })';
  const PLACES = [
    ['a model expression', `const out = await nh.step({ program: "execute\\nGo." }); return out.kind;`, LOOP],
    ['generated code', `const out = await nh.currentDispatcher().dispatch({ language: "javascript", intent: "define-and-invoke", entry: "spin", source: ${JSON.stringify(`export function spin() { ${LOOP}; return 1; }`)}, dependencies: [] }); return out.invocation.value;`, '1'],
    ['a SessionFunction body', `${LOOP}; return 1;`, '1'],
  ] as const;
  for (const [place, body, expression] of PLACES) {
    test(`from ${place}: the interrupted cell ends, and the kernel answers`, async () => {
      const define = await runCell(
        suite.kernel,
        `${modelEvaluating(expression)}
async function looping() { ${body} }`,
      );
      expect(define.error).toBeUndefined();
      const started = performance.now();
      const run = await runCell(suite.kernel, 'await looping()', {
        onIOPub: (msg) => void (msg.header.msg_type === 'execute_input' && setTimeout(() => suite.kernel.interrupt(), 300)),
      });
      // Interrupted, restarted (saying so), or the loop never ran (generated code's late callbacks are refused).
      if (run.error) expect(['KeyboardInterrupt', 'KernelRestarted']).toContain(run.error.ename);
      else expect(run.result?.['text/plain']).toBe('1');
      expect(performance.now() - started).toBeLessThan(RESTART_AFTER_MS + 10_000);
      // A restarted kernel is reconnected to first (the client follows its 'restarting').
      await vi.waitFor(() => expect(suite.kernel.status).toBe('idle'), { timeout: 20_000, interval: 100 });
      expect((await runCell(suite.kernel, '40 + 2')).result?.['text/plain']).toBe('42');
    }, 60_000);
  }
});
