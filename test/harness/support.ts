import { z } from 'zod';
import {
  AgentExecutor,
  InMemoryPerimeterAuditStore,
  Runner,
  defineCapability,
  type Capability,
  type Composition,
  type LedgerEvent,
  type RunnerOptions,
} from '../../kernel/src/index.js';
import { ScriptedModel, toolCall, type ScriptedTurn } from '../../kernel/src/testing.js';

export const finish = (result: Record<string, unknown> = { kind: 'pass' }) => toolCall('nh_output', { result });

/** A runner over a scripted model; returns both so tests can count model requests. */
export function scriptedRunner(turns: ScriptedTurn | ScriptedTurn[], options: Partial<RunnerOptions> = {}) {
  const model = new ScriptedModel(turns);
  const runner = new Runner({ executor: new AgentExecutor({ model, maxRequestsPerStep: 100 }), ...options });
  return { runner, model };
}

/**
 * Dispatches generated `source` (exporting `run`) in a fresh run that grants `references`, calls `run`, and
 * returns the run's outcome as data (`value` or `error`) with the runner, whose ledger holds the evidence.
 */
export async function runGenerated(source: string, references: Record<string, unknown>) {
  const { runner } = scriptedRunner([]);
  const dependencies = Object.keys(references).map((name) => ({ name, kind: 'reference' as const, type: typeof references[name] }));
  const outcome: { value: unknown } | { error: unknown } = await runner
    .run(async (ctx) => {
      const out = await ctx.dispatch({ language: 'javascript', intent: 'define', source, dependencies });
      return await (out.exports['run'] as () => unknown)();
    }, { grant: { references } })
    .then((value) => ({ value }), (error: unknown) => ({ error }));
  return { runner, outcome };
}

/**
 * A composition that dispatches generated `source` with `capability` as its one dependency (under the
 * capability's name) and returns what its `run` export resolves to.
 */
export function callingGenerated(source: string, capability: Capability): Composition<unknown> {
  return async (ctx) => {
    const m = await ctx.dispatch({ language: 'javascript', intent: 'define', source, dependencies: [{ name: capability.name, kind: 'capability', type: capability.signature }] });
    return await (m.exports['run'] as () => Promise<unknown>)();
  };
}

/**
 * A composition that dispatches generated `source` with the granted reference `name` (a function) as its one
 * dependency and returns what its `run` export resolves to; the run's grant must hold that reference.
 */
export function callingGeneratedWithReference(source: string, name: string): Composition<unknown> {
  return async (ctx) => {
    const m = await ctx.dispatch({ language: 'javascript', intent: 'define', source, dependencies: [{ name, kind: 'reference', type: 'function' }] });
    return await (m.exports['run'] as () => Promise<unknown>)();
  };
}

/** A capability that records whether its body ran. */
export function trackedCapability(name: string, footprint: Capability['footprint'] = []) {
  const calls: unknown[] = [];
  const capability = defineCapability({
    name,
    description: `${name} for tests`,
    request: z.object({ target: z.string() }),
    footprint,
    run: (args) => {
      calls.push(args);
      return { done: args.target };
    },
  });
  return { capability, calls };
}

export const memoryStore = () => new InMemoryPerimeterAuditStore();

export const kinds = (events: readonly LedgerEvent[]) => events.map((e) => e.kind);
export const terminalCounts = (events: readonly LedgerEvent[]) => {
  const counts = new Map<string, number>();
  for (const e of events) if (e.kind === 'execution.end' || e.kind === 'dispatch.end' || e.kind === 'run.end') counts.set(e.subjectId, (counts.get(e.subjectId) ?? 0) + 1);
  return counts;
};

/** Lets pending timers and promise jobs run (20 ms). */
export const settle = () => new Promise((r) => setTimeout(r, 20));

/** A gate the test opens, and a promise that says when something first reached it. */
export function gate() {
  let open!: () => void;
  const opened = new Promise<void>((r) => (open = r));
  let reached!: () => void;
  const arrived = new Promise<void>((r) => (reached = r));
  return { open, opened, reached, arrived };
}
