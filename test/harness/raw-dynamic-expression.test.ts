import { describe, expect, it } from 'vitest';
import { rawDynamicExecutionIn } from '../../kernel/src/index.js';
import { scriptedRunner } from './support.js';

describe('the raw-dynamic-execution rule for model expressions', () => {
  it.each([
    ['eval("1+1")', 'eval'],
    ['(0, eval)("x")', 'eval'],
    ['Function("return 1")()', 'Function constructor'],
    ['new Function("x")', 'Function constructor'],
    ['(() => 0).constructor("return 1")', 'constructor access'],
    ['import("node:fs")', 'dynamic import'],
    ['require("child_process")', 'require'],
    ['globalThis["ev" + "al"]("1")', 'computed global access'],
    ['`${eval("1")}`', 'eval'],
    ['setTimeout("x()", 1)', 'timer with source text'],
    ['__nh_guard', 'reserved name'],
  ])('refuses %s (%s)', (expression, rule) => {
    expect(rawDynamicExecutionIn(expression)).toBe(rule);
  });

  it.each(['"eval is a word"', "'new Function(' + x", 'records.map((r) => r.evaluation)', 'Math.max(1, 2)', '`plain ${name}`'])('allows %s', (expression) => {
    expect(rawDynamicExecutionIn(expression)).toBeUndefined();
  });

  it('a composition that throws synchronously still ends its run with one run.end event', async () => {
    const { runner } = scriptedRunner([]);
    const error = await runner.run((() => { throw new Error('sync boom'); }) as never).catch((e: unknown) => e);
    expect((error as Error).message).toBe('sync boom');
    expect(runner.ledger.select({ kind: 'run.end' }).map((e) => e.status)).toEqual(['failed']);
  });
});
