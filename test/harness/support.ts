import { z } from 'zod';
import {
  AgentExecutor,
  InMemoryPerimeterAuditStore,
  Runner,
  defineCapability,
  type Capability,
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
