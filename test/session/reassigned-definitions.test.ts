/**
 * Seed 001, observed definition materialization: a callable is approved only when the submitted cell defines
 * it. A cell that defines `f` and then assigns `f` another value (a join helper, a closure a Natural function
 * returned) ends with a value the cell did not define under that name: nothing is approved, and the attempt is
 * evidence (`unobserved_definition`). A reassignment inside a function that declares its own `f` is a
 * different binding and changes nothing.
 */
import { describe, expect, it } from 'vitest';
import { AgentExecutor, Session } from '../../kernel/src/index.js';
import { ScriptedModel } from '../../kernel/src/testing.js';

const newSession = () => new Session({ executor: new AgentExecutor({ model: new ScriptedModel([]) }) });
const elsewhere = function made(x: number) { return x; };

function materialize(source: string) {
  const session = newSession();
  const out = session.materialized(session.submit(source), { f: elsewhere });
  return { session, out, unobserved: session.anomalies.filter((a) => a.anomalyKind === 'unobserved_definition') };
}

describe('a cell that defines a name and then assigns it another value', () => {
  for (const [label, source] of [
    ['plain assignment after a function declaration', 'function f(x) { return x; }\nf = join;'],
    ['assignment after a let arrow function', 'let f = (x) => x;\nf = await makeOne();'],
    ['logical assignment', 'let f = (x) => x;\nf ||= other;'],
    ['array destructuring assignment', 'let f = (x) => x;\n[f] = [other];'],
    ['object destructuring assignment', 'let f = (x) => x;\n({ f } = { f: other });'],
    ['renamed destructuring assignment', 'let f = (x) => x;\n({ g: f } = { g: other });'],
    ['assignment inside a nested function that does not shadow it', 'let f = (x) => x;\nfunction swap() { f = other; }\nswap();'],
    ['for-of head', 'let f = (x) => x;\nfor (f of [other]);'],
    ['a var redeclaration that binds an existing value', 'var f = function (x) { return x; };\nvar f = other;'],
    ['assignment through globalThis', 'var f = function (x) { return x; };\nglobalThis.f = other;'],
  ] as const) {
    it(`${label}: nothing approved, recorded`, () => {
      const { session, out, unobserved } = materialize(source);
      expect(out.f).toBeUndefined();
      expect(session.isApproved(elsewhere)).toBe(false);
      expect(unobserved.map((a) => a.detail.name)).toEqual(['f']);
    });
  }

  for (const [label, source] of [
    ['a parameter of the same name', 'function f(x) { return x; }\nfunction g(f) { f = 1; return f; }'],
    ['a local variable of the same name', 'const f = (x) => x;\nfunction g() { let f = 0; f = 1; return f; }'],
    ['a catch binding of the same name', 'const f = (x) => x;\ntry { g(); } catch (f) { f = 1; }'],
    ['a property of another object', 'function f(x) { return x; }\nconst o = {}; o.f = other;'],
  ] as const) {
    it(`an assignment to ${label} leaves the definition approved`, () => {
      const { session, out, unobserved } = materialize(source);
      expect(out.f).toBeDefined();
      expect(session.isApproved(out.f!)).toBe(true);
      expect(unobserved).toEqual([]);
    });
  }
});
