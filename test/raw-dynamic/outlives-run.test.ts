/**
 * Code made from text never outlives its check (issue 13, item 2): a function cannot be built from text
 * inside generated code, and a generated callable of any kind kept past its run is refused and recorded.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ExpressionCodeOutsideExecutionError, GeneratedCodeOutsideDispatchError, RawDynamicExecutionRefusedError, type Runner, step } from '../../kernel/src/index.js';
import { toolCall } from '../../kernel/src/testing.js';
import { finish, runGenerated, scriptedRunner } from '../harness/support.js';

const dir = mkdtempSync(join(tmpdir(), 'nh-outlives-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const define = (source: string, holder: Record<string, unknown>, extra: Record<string, unknown> = {}) => runGenerated(source, { holder, ...extra });

/**
 * Evidence that arrives after run.end (seed: nothing of a run is recorded after its run.end) goes to the
 * Runner's late-anomaly record, naming the run; the run's ledger ends with run.end and gains nothing.
 */
function expectRecordedAfterRunEnd(runner: Runner, kinds: string[]): void {
  const events = runner.ledger.select({});
  expect(events.at(-1)?.kind).toBe('run.end');
  expect(events.filter((e) => e.kind === 'trace.anomaly')).toEqual([]);
  const runId = events[0]!.runId;
  expect(runner.anomalies.map((a) => a.anomalyKind)).toEqual(kinds);
  for (const a of runner.anomalies) expect(a.runId).toBe(runId);
}

describe('code made from text never outlives its check', () => {
  it('the real Function constructor cannot build a function to keep in a granted reference', async () => {
    const target = join(dir, 'constructed.txt');
    const holder: Record<string, unknown> = {};
    const source = `export function run() {
      const C = Reflect.get(() => 0, ['constr', 'uctor'].join(''));
      holder.fn = C('p', "process.getBuiltinModule('fs').writeFileSync(p, 'x')");
    }`;
    const { runner, outcome } = await define(source, holder);
    expect((outcome as { error: unknown }).error).toBeInstanceOf(RawDynamicExecutionRefusedError);
    expect(holder.fn).toBeUndefined();
    expect(runner.ledger.select({ kind: 'trace.anomaly' }).map((e) => e.status)).toEqual(['raw_dynamic_execution']);
    expect(existsSync(target)).toBe(false);
  });

  it.each([
    ['an arrow function', 'holder.call = () => touch();', (h: any) => h.call()],
    ['a function expression', 'holder.call = function () { touch(); };', (h: any) => h.call()],
    ['a bound function', 'holder.call = function () { touch(); }.bind(null);', (h: any) => h.call()],
    ['an object method', 'holder.obj = { m() { touch(); } };', (h: any) => h.obj.m()],
    ['a getter', 'holder.obj = { get v() { touch(); return 1; } };', (h: any) => h.obj.v],
    ['a class with no constructor', 'holder.C = class {};', (h: any) => new h.C()],
    ['a derived class with no constructor', 'holder.C = class extends Array {};', (h: any) => new h.C()],
    ['an async function started after the run', 'holder.call = async () => { touch(); };', (h: any) => h.call()],
  ])('%s kept past its run is refused with GeneratedCodeOutsideDispatchError and recorded', async (_kind, statement, call) => {
    let touched = 0;
    const holder: Record<string, any> = {};
    const { runner, outcome } = await define(`export function run() { ${statement} }`, holder, { touch: () => void touched++ });
    expect(outcome).not.toHaveProperty('error');
    expect(runner.ledger.select({ kind: 'run.end' })).toHaveLength(1);
    let error: unknown;
    try {
      await call(holder);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(GeneratedCodeOutsideDispatchError);
    expect(touched).toBe(0);
    expectRecordedAfterRunEnd(runner, ['generated_code_outside_dispatch']);
  });

  it('an async generated function suspended across run end refuses to resume, and is recorded', async () => {
    const target = join(dir, 'resumed.txt');
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const holder: Record<string, any> = {};
    const source = `export function run() { holder.pending = (async () => { await gate; fs.writeFileSync(target, 'late'); })(); }`;
    const fs = await import('node:fs');
    const { runner } = await define(source, holder, { gate, fs, target });
    release();
    await expect(holder.pending).rejects.toBeInstanceOf(GeneratedCodeOutsideDispatchError);
    expect(existsSync(target)).toBe(false);
    expectRecordedAfterRunEnd(runner, ['generated_code_outside_dispatch']);
  });
});

describe('functions a model expression defines never outlive their Natural execution', () => {
  async function evaluate(expressions: string[], references: Record<string, unknown>) {
    const { runner } = scriptedRunner([() => ({ toolCalls: expressions.map((expression) => toolCall('nh_evaluate', { expression })) }), () => ({ toolCalls: [finish()] })]);
    await runner.run(async () => step({ program: 'execute\nGo.' }), { grant: { references } });
    return runner;
  }

  it('a closure kept in a granted reference and called after the run is refused and recorded; it writes nothing', async () => {
    const fs = await import('node:fs');
    const target = join(dir, 'expression-closure.txt');
    const holder: Record<string, any> = {};
    const runner = await evaluate(['(holder.write = () => fs.writeFileSync(target, "x"), 1)', 'holder.double = (x) => x * 2', 'holder.double(21)'], { holder, fs, target });
    // Inside its execution the closure works, also from a later operation.
    expect(runner.ledger.select({ kind: 'operation' }).map((e) => e.status)).toEqual(['completed', 'completed', 'completed', 'completed']);
    expect(() => holder.write()).toThrow(ExpressionCodeOutsideExecutionError);
    expect(() => holder.double(2)).toThrow(ExpressionCodeOutsideExecutionError);
    expect(existsSync(target)).toBe(false);
    expectRecordedAfterRunEnd(runner, ['expression_code_outside_execution', 'expression_code_outside_execution']);
  });

  it('an async function an expression started cannot resume after its execution ended', async () => {
    const fs = await import('node:fs');
    const target = join(dir, 'expression-resumed.txt');
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const holder: Record<string, any> = {};
    await evaluate(['(holder.pending = (async () => { await gate; fs.writeFileSync(target, "late"); })(), 1)'], { holder, fs, target, gate });
    release();
    await expect(holder.pending).rejects.toBeInstanceOf(ExpressionCodeOutsideExecutionError);
    expect(existsSync(target)).toBe(false);
  });
});
