/**
 * Seed 001: "every generator, async generator, and coroutine function is compiled to return a host
 * proxy whose send, throw, and close (and asynchronous counterparts) consult the guard". Generated
 * generators work inside their dispatch and refuse to start or resume after it ended.
 */
import { describe, expect, it } from 'vitest';
import { GeneratedCodeOutsideDispatchError, GeneratedSourceRejectedError, type CodeProposal, type LedgerEvent } from '../../kernel/src/index.js';
import { scriptedRunner } from './support.js';

const source = [
  'async function* numbers(): AsyncGenerator<number> { yield 1; yield 2; yield 3; }',
  'function* letters(): Generator<string> { yield "a"; yield "b"; }',
  'export async function collect(): Promise<number[]> { const out: number[] = []; for await (const n of numbers()) out.push(n); return out; }',
  'export function spell(): string { return [...letters()].join(""); }',
  'export function escape(): AsyncGenerator<number> { return numbers(); }',
  'export async function primed(): Promise<{ rest: AsyncGenerator<number> }> { const rest = numbers(); await rest.next(); return { rest }; }',
  'export function primedSync(): { rest: Generator<string> } { const rest = letters(); rest.next(); return { rest }; }',
].join('\n');
const proposal: CodeProposal = { language: 'typescript', intent: 'define', source };

const sequence = (events: readonly LedgerEvent[]) => events.map((e) => (e.status === undefined ? e.kind : `${e.kind}:${e.status}`));

describe('guarded generators in generated code', () => {
  it('a generated async generator yielding three values is consumed inside its dispatch (and a sync one too)', async () => {
    const { runner } = scriptedRunner([]);
    const out = await runner.run(async (ctx) => {
      const { exports } = await ctx.dispatch(proposal);
      return { numbers: await (exports.collect as () => Promise<number[]>)(), letters: (exports.spell as () => string)() };
    });
    expect(out).toEqual({ numbers: [1, 2, 3], letters: 'ab' });
    expect(runner.ledger.select({ kind: 'trace.anomaly' })).toHaveLength(0);
  });

  it('resumed with next, throw or return after its dispatch ended, it is refused with the typed error and recorded', async () => {
    const { runner } = scriptedRunner([]);
    const refusals = await runner.run(async (ctx) => {
      const { exports } = await ctx.dispatch(proposal);
      const { rest } = await (exports.primed as () => Promise<{ rest: AsyncGenerator<number> }>)();
      const fresh = (exports.escape as () => AsyncGenerator<number>)();
      const outcomes: unknown[] = [];
      for (const attempt of [() => rest.next(), () => rest.throw(new Error('late')), () => rest.return(0), () => fresh.next()]) {
        outcomes.push(await attempt().then(() => 'resumed', (e: unknown) => e));
      }
      return outcomes;
    });
    expect(refusals).toHaveLength(4);
    for (const refusal of refusals) {
      expect(refusal).toBeInstanceOf(GeneratedCodeOutsideDispatchError);
      expect((refusal as GeneratedCodeOutsideDispatchError).site).toBe('resume');
    }
    const anomalies = runner.ledger.select({ kind: 'trace.anomaly' });
    expect(anomalies.map((e) => e.status)).toEqual(Array(4).fill('generated_code_outside_dispatch'));
    expect(sequence(runner.ledger.events())).toEqual([
      'run.entry',
      'dispatch.start:materialization',
      'dispatch.end:completed',
      'dispatch.start:invocation',
      'dispatch.end:completed',
      'dispatch.start:invocation',
      'dispatch.end:completed',
      ...Array(4).fill('trace.anomaly:generated_code_outside_dispatch'),
      'run.end:completed',
    ]);
  });

  it('a synchronous generator that escaped its dispatch throws the typed error on next, throw and return', async () => {
    const { runner } = scriptedRunner([]);
    const refusals = await runner.run(async (ctx) => {
      const { exports } = await ctx.dispatch(proposal);
      const { rest } = (exports.primedSync as () => { rest: Generator<string> })();
      return [() => rest.next(), () => rest.throw(new Error('late')), () => rest.return('x')].map((attempt) => {
        try {
          attempt();
          return 'resumed';
        } catch (e) {
          return e;
        }
      });
    });
    expect(refusals.every((r) => r instanceof GeneratedCodeOutsideDispatchError)).toBe(true);
    expect(runner.ledger.select({ kind: 'trace.anomaly' })).toHaveLength(3);
  });

  it.each([
    ['a generator method', 'export const o = { *g() { yield 1; } };'],
    ['an async generator method', 'class A { async *g() { yield 1; } }\nexport function make(): unknown { return new A(); }'],
    ['a generator lambda', 'export function f(): unknown { const g = function* () { yield 1; }; return g; }'],
    ['a coroutine method', 'export const o = { async load(): Promise<number> { return 1; } };'],
  ])('%s is still rejected at validation, before anything runs', async (_label, text) => {
    const { runner } = scriptedRunner([]);
    const error = await runner.run((ctx) => ctx.dispatch({ language: 'typescript', intent: 'define', source: text })).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(GeneratedSourceRejectedError);
    expect((error as GeneratedSourceRejectedError).violations.map((v) => v.rule)).toEqual([text.includes('async load') ? 'coroutine-method' : 'generator']);
    expect(sequence(runner.ledger.events())).toEqual(['run.entry', 'dispatch.start:materialization', 'dispatch.end:rejected', 'run.end:failed']);
  });
});
