/**
 * Red-team round A, attack 1: functions a model expression makes are guarded however the text is spelled. The guard's
 * pre-check is conservative (only text with no `{` and no `=>` is compiled as it is), what is compiled is the parser's
 * reading of the text, and text the parser cannot read cleanly (legacy octal, HTML-like comments, text that leaves the
 * wrapper) is refused before it runs (a recoverable rejection and an `expression_not_guardable` anomaly) instead of
 * being compiled with every function in it unguarded.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { AgentExecutor, Runner, anomaliesOutsideRunners, run, step } from '../../kernel/src/index.js';
import { guardExpressionFunctions, unguardableExpression } from '../../kernel/src/core/expression-guard.js';
import { ScriptedModel, toolCall } from '../../kernel/src/testing.js';

const G = globalThis as Record<string, unknown>;
const PROBE_KEYS = ['__rtLate', '__rtSeen', '__rtOk', '__rtRefused'] as const;
afterEach(() => {
  for (const k of PROBE_KEYS) delete G[k];
});

const goStep = async () => {
  await step({ program: 'execute\nDo it.', writes: {} });
  return 'done';
};

describe('the expression guard fails closed', () => {
  it.each([
    ['a comment between ) and {', '({ f()/**/{ return 1 } }).f'],
    ['a line comment between ) and {', '({ f() // c\n { return 1 } }).f'],
    ['an async generator method with a comment', '({ async *g()/**/{} })'],
  ])('%s is rewritten', (_name, text) => {
    // A generator's body starts with the entry check; any other function's body runs through the guard.
    expect(guardExpressionFunctions(text)).toMatch(/__nh_(live|enter)\(/);
  });

  it.each([
    ['a legacy octal literal', '(010, () => 1)'],
    ['an HTML close comment line', '(() => 1)\n--> html comment'],
    ['a legacy octal escape', "(function(){ return '\\08' })"],
    ['strict-mode octal', "(function(){ 'use strict'; return 08 })"],
    ['text that leaves the wrapper', '0)), setTimeout(() => { globalThis.__rtLate = 1 }, 15), ((() => 0)'],
  ])('%s is refused, with a rule and a way to fix it', (_name, text) => {
    expect(unguardableExpression(text)).toMatch(/\S/);
    expect(() => guardExpressionFunctions(text)).toThrow(/could not be checked|Rewrite/);
  });

  it.each([
    ['a generator method', '({ __proto__: { a: 1 }, *g() { yield super.a } })'],
    ['an async generator method, super in an arrow', '({ async *g() { const read = () => super.a; yield read() } })'],
    ['a static generator method of a class', '(class extends Object { static *[Symbol.iterator]() { yield super.name } })'],
  ])('%s that uses super is refused, saying why and what to write instead', (_name, text) => {
    expect(unguardableExpression(text)).toMatch(/generator method .+ uses super/);
    expect(() => guardExpressionFunctions(text)).toThrow(/uses super.*Do not use super inside a generator method/s);
  });

  it('in a core-only run (no host to refuse it first), the operation fails with the reason and the refusal is noted', async () => {
    const expression = '({ __proto__: { a: 1 }, *g() { yield super.a } })';
    let replied: unknown;
    const model = new ScriptedModel([
      () => ({ toolCalls: [toolCall('nh_evaluate', { expression })] }),
      (messages) => {
        replied = messages.at(-1);
        return { toolCalls: [toolCall('nh_output', { result: { kind: 'pass' } })] };
      },
    ]);
    const before = anomaliesOutsideRunners().length;
    await run(new AgentExecutor({ model }), () => step({ program: 'execute\nGo.' }));
    expect(JSON.stringify(replied)).toContain('Do not use super inside a generator method');
    const noted = anomaliesOutsideRunners().slice(before).filter((a) => a.anomalyKind === 'expression_not_guardable');
    expect(noted.map((a) => (a.detail as { problem?: string }).problem)).toEqual(['generator method g uses super']);
  });

  it('super in an ordinary method beside a generator method is not refused', () => {
    // Only a generator body that uses `super` cannot move; the check is per function, not per object.
    expect(unguardableExpression('({ m() { return super.a + 1 }, *g() { yield this.m() } })')).toBeUndefined();
  });

  it('text that cannot make a function (no { and no =>) is compiled as it is', () => {
    expect(unguardableExpression('010 + a.b')).toBeUndefined();
    expect(guardExpressionFunctions('010 + a.b')).toBe('010 + a.b');
  });

  it('a comment that V8 reads as an HTML comment cannot hide a function from the guard', () => {
    // TypeScript reads `<!--` as `< ! --`; V8 reads the rest of the line as a comment, so the template's text is code.
    const text = 'x <!-- `\n(() => { globalThis.__rtLate = 1 })\n`';
    const guarded = (() => {
      try {
        return guardExpressionFunctions(text);
      } catch {
        return undefined;
      }
    })();
    // Either refused, or what is compiled is the parser's reading of the text (no comment left to hide behind).
    if (guarded !== undefined) expect(guarded).not.toContain('<!--');
  });

  const between = {
    comment: "(setTimeout(({ f()/**/{ globalThis.__rtLate = 'ran'; } }).f, 15), 1)",
    octal: "(010, setTimeout(() => { globalThis.__rtLate = 'ran'; }, 15), 1)",
    html: "(setTimeout(() => { globalThis.__rtLate = 'ran'; }, 15), 1)\n--> x",
    wrapper: "0)), setTimeout(() => { globalThis.__rtLate = 'ran'; }, 15), ((() => 0)",
  };
  for (const [variant, expression] of Object.entries(between)) {
    it(`${variant}: a function left in a timer does not run between operations`, async () => {
      let secondRequest: readonly { role: string; content?: unknown }[] = [];
      const model = new ScriptedModel([
        () => ({ toolCalls: [toolCall('nh_evaluate', { expression })] }),
        async (messages) => {
          secondRequest = messages;
          await new Promise((r) => setTimeout(r, 60));
          G['__rtSeen'] = G['__rtLate'];
          return { toolCalls: [toolCall('nh_evaluate', { expression: '2' })] };
        },
        () => ({ toolCalls: [toolCall('nh_output', { result: { kind: 'pass' } })] }),
      ]);
      const runner = new Runner({ executor: new AgentExecutor({ model }) });
      await runner.run(goStep).catch(() => undefined);
      await new Promise((r) => setTimeout(r, 30));
      expect(G['__rtSeen']).toBeUndefined();
      expect(G['__rtLate']).toBeUndefined();
      const anomalies = runner.ledger.select({ kind: 'trace.anomaly' });
      if (variant === 'comment') {
        expect(anomalies.map((e) => e.status)).toContain('expression_code_outside_operation');
      } else {
        // Refused before it ran, recoverably: the model is told why and how to fix it.
        const refused = anomalies.filter((e) => e.status === 'expression_not_guardable');
        expect(refused).toHaveLength(1);
        expect((refused[0]!.data as { rule?: string }).rule).toBe('expression_not_guardable');
        const ops = runner.ledger.select({ kind: 'operation' }).map((e) => e.status);
        expect(ops[0]).toBe('rejected');
        const reply = secondRequest.find((m) => m.role === 'tool')!;
        expect(String(reply.content)).toMatch(/rejected.*Rewrite/);
      }
    });
  }
});

