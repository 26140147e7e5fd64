/**
 * Attack: the harness records the built-ins once, as they are when its first run starts, and restores them to that
 * record after each operation and step. A core-only run (`nh.run`, no Runner) checked nothing and recorded nothing,
 * so in a process whose first run was a core-only one, its model expression could change a built-in with nothing
 * but built-ins (here `Set.prototype.has` made to answer yes: the expression guard refuses only functions the
 * model wrote, when they are called later) and the change became the record every later Runner restores to. A
 * function the model wrote there (`JSON.stringify`) stayed too, and a later `new Runner()` threw its refusal.
 *
 * The built-ins are now recorded before any run's first step, and a core-only run restores them after each of its
 * operations and steps, leaving a `builtin_modified` anomaly where runs without a ledger leave theirs
 * (`anomaliesOutsideRunners()`, also read by Session.anomalies).
 *
 * This file must stay on its own: it needs a module graph in which no Runner has run before the core-only run.
 */
import { describe, expect, it } from 'vitest';
import * as nh from '../../kernel/src/index.js';
import { ScriptedModel, toolCall } from '../../kernel/src/testing.js';

const finish = () => toolCall('nh_output', { result: { kind: 'pass' } });
const coreOnly = (expression: string) =>
  nh.run(new nh.AgentExecutor({ model: new ScriptedModel([() => ({ toolCalls: [toolCall('nh_evaluate', { expression }), finish()] })]) }), () => nh.step({ program: 'execute\nGo.' }));

describe("attack: a core-only run's model expression changing built-ins before the first Runner", () => {
  it('is restored when its step ends and leaves an anomaly; a later Runner restores to the built-ins the process loaded with', async () => {
    const has = Set.prototype.has;
    const stringify = JSON.stringify;
    try {
      await coreOnly(`(() => { Set.prototype.has = Set.prototype.add; JSON.stringify = (v) => 'model'; return 'changed'; })()`);
      expect(Set.prototype.has).toBe(has);
      expect(JSON.stringify).toBe(stringify);
      expect(new Set<number>().has(1)).toBe(false);
      const outside = nh.anomaliesOutsideRunners().filter((a) => a.anomalyKind === 'builtin_modified');
      expect(outside.map((a) => (a.detail as { property?: unknown }).property).sort()).toEqual(['JSON.stringify', 'Set.prototype.has']);
      expect(outside.every((a) => typeof a.runId === 'string' && (a.detail as { restored?: unknown }).restored === true)).toBe(true);

      // The same change from a Runner's model expression: restored and recorded in that run's ledger, against the
      // built-ins recorded before the core-only run (not the ones it left).
      const model = new ScriptedModel([() => ({ toolCalls: [toolCall('nh_evaluate', { expression: `(() => { Set.prototype.has = Set.prototype.add; return 'again'; })()` }), finish()] })]);
      const runner = new nh.Runner({ executor: new nh.AgentExecutor({ model }) });
      await runner.run(() => nh.step({ program: 'execute\nGo.' }), { grant: { capabilities: [], references: {} } });
      expect(Set.prototype.has).toBe(has);
      const anomalies = runner.ledger.select({}).filter((e) => e.kind === 'trace.anomaly');
      expect(anomalies.map((e) => [e.status, (e.data as { property?: unknown }).property])).toContainEqual(['builtin_modified', 'Set.prototype.has']);
    } finally {
      // So a failing expectation above leaves the test process usable.
      Set.prototype.has = has;
      JSON.stringify = stringify;
    }
  });

  it('an operation of a core-only run is checked when it ends: the next operation of the same step runs on the restored built-ins', async () => {
    const seen: unknown[] = [];
    const model = new ScriptedModel([
      () => ({ toolCalls: [toolCall('nh_evaluate', { expression: `(() => { Object.prototype.polluted = 'yes'; return 1; })()` })] }),
      () => ({ toolCalls: [toolCall('nh_evaluate', { expression: `({}).polluted === undefined ? 'clean' : 'polluted'` }), finish()] }),
    ]);
    await nh.run(new nh.AgentExecutor({ model }), () => nh.scope({ oversight: { onOperationFinished: (f) => void (f.valuePreview === undefined || seen.push(f.valuePreview)) } }, () => nh.step({ program: 'execute\nGo.' })));
    expect(seen).toEqual(['1', '"clean"']);
    expect(Object.prototype).not.toHaveProperty('polluted');
    expect(nh.anomaliesOutsideRunners().some((a) => a.anomalyKind === 'builtin_modified' && (a.detail as { property?: unknown }).property === 'Object.prototype.polluted')).toBe(true);
  });

  it('code a core-only run left behind is refused after the run, and each refusal is noted outside Runners', async () => {
    const before = nh.anomaliesOutsideRunners().length;
    const left = globalThis as { leftByModel?: () => string; timerRan?: boolean };
    await coreOnly(`(() => { globalThis.leftByModel = () => 'ran'; setTimeout(() => { globalThis.timerRan = true; }, 20); return 'left'; })()`);
    expect(() => left.leftByModel!()).toThrow(nh.ExpressionCodeOutsideExecutionError);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(left.timerRan).toBeUndefined();
    const kinds = nh.anomaliesOutsideRunners().slice(before).map((a) => [a.anomalyKind, (a.detail as { callback?: unknown }).callback]);
    expect(kinds).toEqual(expect.arrayContaining([['expression_code_outside_execution', undefined], ['expression_code_outside_execution', 'dropped']]));
    delete left.leftByModel;
  });
});
