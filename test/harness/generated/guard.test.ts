/** Generated code runs only inside a live dispatch: escaped helpers refuse to start, resume or run handlers. */
import { describe, expect, it } from 'vitest';
import {
  compileGenerated,
  GeneratedCodeOutsideDispatchError,
  type CodeProposal,
  type GeneratedCodeAnomaly,
} from '../../../kernel/src/harness/generated/index.js';

function materialise(source: string, dependencies: Record<string, unknown> = {}) {
  let live = true;
  const anomalies: GeneratedCodeAnomaly[] = [];
  const proposal: CodeProposal = {
    language: 'typescript',
    intent: 'define',
    source,
    dependencies: Object.keys(dependencies).map((name) => ({ name, kind: 'reference' as const, type: 'unknown' })),
  };
  const compiled = compileGenerated(proposal, { onAnomaly: (a) => anomalies.push(a), isLive: () => live, dependencies });
  return {
    exports: compiled.exports as Record<string, (...args: any[]) => any>,
    anomalies,
    end: () => void (live = false),
    resume: () => void (live = true),
  };
}

function deferred(): { promise: Promise<void>; resolve: () => void; reject: (e: unknown) => void } {
  let resolve!: () => void;
  let reject!: (e: unknown) => void;
  const promise = new Promise<void>((res, rej) => ((resolve = res), (reject = rej)));
  return { promise, resolve, reject };
}

describe('generated code guards', () => {
  it('a helper called inside a live dispatch runs', () => {
    const m = materialise('export function make() { return (x: number) => x * 2; }');
    expect(m.exports.make!()(21)).toBe(42);
  });

  it('an escaped helper refuses to run after the dispatch ended', () => {
    const m = materialise('export function make() { return (x: number) => x * 2; }');
    const helper = m.exports.make!();
    m.end();
    expect(() => helper(21)).toThrow(GeneratedCodeOutsideDispatchError);
    expect(m.anomalies).toEqual([expect.objectContaining({ kind: 'generated_code_outside_dispatch', site: 'entry' })]);
  });

  it('escaped methods, accessors and class instances refuse to run', () => {
    const m = materialise(`
      class Counter { n = 0; inc() { return ++this.n; } }
      export function make() {
        return { counter: new Counter(), get value() { return 1; }, Counter };
      }`);
    const { counter, Counter } = m.exports.make!();
    const holder = m.exports.make!();
    m.end();
    expect(() => counter.inc()).toThrow(GeneratedCodeOutsideDispatchError);
    expect(() => holder.value).toThrow(GeneratedCodeOutsideDispatchError);
    // A private class without an explicit constructor still guards its field initializers.
    expect(() => new Counter()).toThrow(GeneratedCodeOutsideDispatchError);
  });

  it('a parameter default does not run before the guard', () => {
    let evaluated = 0;
    const m = materialise('export function make() { return (x = touch()) => x; }', { touch: () => ++evaluated });
    const helper = m.exports.make!();
    m.end();
    expect(() => helper()).toThrow(GeneratedCodeOutsideDispatchError);
    expect(evaluated).toBe(0);
  });

  it('a catch block entered after the dispatch ended is refused', () => {
    const handled: string[] = [];
    const m = materialise(
      `export function run(step: () => void) {
         try { step(); } catch (e) { note('caught'); }
       }`,
      { note: (s: string) => handled.push(s) },
    );
    expect(() =>
      m.exports.run!(() => {
        m.end();
        throw new Error('boom');
      }),
    ).toThrow(GeneratedCodeOutsideDispatchError);
    expect(handled).toEqual([]);
    expect(m.anomalies[0]).toMatchObject({ site: 'handler' });
  });

  it('a finally block entered after the dispatch ended is refused', () => {
    const handled: string[] = [];
    const m = materialise(
      `export function run(step: () => void) {
         try { step(); } finally { note('finally'); }
       }`,
      { note: (s: string) => handled.push(s) },
    );
    expect(() => m.exports.run!(() => m.end())).toThrow(GeneratedCodeOutsideDispatchError);
    expect(handled).toEqual([]);
  });

  it('an escaped async continuation awaiting a timer refuses to resume after the dispatch ended', async () => {
    const after: string[] = [];
    const m = materialise(
      `export async function slow() {
         await new Promise((resolve) => setTimeout(resolve, 0));
         note('resumed');
         return 1;
       }`,
      { note: (s: string) => after.push(s) },
    );
    const pending = m.exports.slow!();
    m.end();
    await expect(pending).rejects.toBeInstanceOf(GeneratedCodeOutsideDispatchError);
    expect(after).toEqual([]);
    expect(m.anomalies[0]).toMatchObject({ site: 'resume' });
  });

  it('an async continuation resumes normally while the dispatch is live', async () => {
    const gate = deferred();
    const m = materialise('export async function wait(p: Promise<void>) { await p; return 5; }');
    const pending = m.exports.wait!(gate.promise);
    gate.resolve();
    await expect(pending).resolves.toBe(5);
  });

  it('an exceptional async resumption cannot run its handler after the dispatch ended', async () => {
    const handled: string[] = [];
    const gate = deferred();
    const m = materialise(
      `export async function wait(p: Promise<void>) {
         try { await p; } catch { note('caught'); } finally { note('finally'); }
       }`,
      { note: (s: string) => handled.push(s) },
    );
    const pending = m.exports.wait!(gate.promise);
    m.end();
    gate.reject(new Error('late'));
    await expect(pending).rejects.toBeInstanceOf(GeneratedCodeOutsideDispatchError);
    expect(handled).toEqual([]);
  });

  it('a for-await loop refuses its next iteration and its exit after the dispatch ended', async () => {
    const seen: unknown[] = [];
    const gate = deferred();
    const first = deferred();
    const source = `export async function drain(items: AsyncIterable<number>) {
         for await (const x of items) { note(x); }
         note('after');
       }`;
    const m = materialise(source, { note: (x: unknown) => (seen.push(x), first.resolve()) });
    async function* items() {
      yield 1;
      await gate.promise;
      yield 2;
    }
    const pending = m.exports.drain!(items());
    await first.promise;
    m.end();
    gate.resolve();
    await expect(pending).rejects.toBeInstanceOf(GeneratedCodeOutsideDispatchError);
    expect(seen).toEqual([1]);

    const n = materialise(source, { note: (x: unknown) => seen.push(x) });
    const empty = { [Symbol.asyncIterator]: () => ({ next: async () => (n.end(), { done: true, value: undefined }) }) };
    await expect(n.exports.drain!(empty)).rejects.toBeInstanceOf(GeneratedCodeOutsideDispatchError);
    expect(seen).toEqual([1]);
  });

  it('a helper refused while the dispatch is not live runs again once a live dispatch invokes it', () => {
    const m = materialise('export function make() { return () => 7; }');
    const helper = m.exports.make!();
    m.end();
    expect(() => helper()).toThrow(GeneratedCodeOutsideDispatchError);
    m.resume();
    expect(helper()).toBe(7);
  });

  it('module evaluation itself is refused when the dispatch is not live', () => {
    expect(() =>
      compileGenerated(
        { language: 'javascript', intent: 'define', source: 'export const x = 1;' },
        { onAnomaly: () => {}, isLive: () => false, dependencies: {} },
      ),
    ).toThrow(GeneratedCodeOutsideDispatchError);
  });

  it('a throwing anomaly recorder does not turn a refusal into success', () => {
    let live = true;
    const compiled = compileGenerated(
      { language: 'javascript', intent: 'define', source: 'export function make() { return () => 1; }' },
      { onAnomaly: () => { throw new Error('recorder down'); }, isLive: () => live, dependencies: {} },
    );
    const helper = (compiled.exports.make as () => () => number)();
    live = false;
    expect(() => helper()).toThrow(GeneratedCodeOutsideDispatchError);
  });
});
