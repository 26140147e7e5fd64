/**
 * Attack: model code writes to a value the host froze: an operator object granted as a reference (a policy, a
 * limit), a library class. (A mutable value the step reads is the caller's, changed in place through nh_evaluate.) Model expressions ran sloppy, so an
 * assignment to a frozen property was dropped without a word: the operation completed with the value the model
 * wanted, the model was told it worked, and nothing was recorded.
 *
 * An expression now runs strict inside its scope: the engine refuses the write with a TypeError, the operation
 * fails with guidance that says what to do instead, and a `frozen_value_write` anomaly is recorded under it (in a
 * core-only run, where such runs leave theirs).
 * Generated code (strict already) gets the same record when its refusal reaches the operation.
 */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import * as nh from '../../kernel/src/index.js';
import { ScriptedModel, toolCall } from '../../kernel/src/testing.js';
import { modelCodeIn, runStepWith, STEP_PLACES, placeName } from './model-code.js';

const finish = () => toolCall('nh_output', { result: { kind: 'pass' } });

async function evaluateAgainst(expression: string) {
  const limits = Object.freeze({ maxSpend: 10, tools: Object.freeze(['search']) });
  const config = { retries: 2, tags: ['a'] };
  let replied: unknown;
  const model = new ScriptedModel([
    () => ({ toolCalls: [toolCall('nh_evaluate', { expression })] }),
    (messages) => {
      replied = messages.at(-1);
      return { toolCalls: [finish()] };
    },
  ]);
  const runner = new nh.Runner({ executor: new nh.AgentExecutor({ model }) });
  await runner.run(() => nh.step({ program: 'execute\nRead <config>.', values: { config } }), {
    grant: { capabilities: [], references: { limits, nh } },
  });
  const operation = runner.ledger.select({ kind: 'operation' })[0]!;
  const reply = JSON.stringify(replied);
  return { limits, config, operation, reply, anomalies: runner.ledger.select({ kind: 'trace.anomaly' }) };
}

/** Runs `expression` against a frozen `limits` in a core-only run (no Runner): the `frozen_value_write` notes it left. */
async function coreOnlyFrozenWrites(expression: string) {
  const limits = Object.freeze({ maxSpend: 10 });
  const model = new ScriptedModel([() => ({ toolCalls: [toolCall('nh_evaluate', { expression })] }), () => ({ toolCalls: [finish()] })]);
  const before = nh.anomaliesOutsideRunners().length;
  await nh.run(new nh.AgentExecutor({ model }), () => nh.step({ program: 'execute\nGo.', references: { limits } }));
  return { limits, noted: nh.anomaliesOutsideRunners().slice(before).filter((a) => a.anomalyKind === 'frozen_value_write') };
}

describe('attack: model code writing a value the host froze', () => {
  it.each([
    ['a granted operator object', 'limits.maxSpend = 1e9', "Cannot assign to read only property 'maxSpend'"],
    ['an array inside it', 'limits.tools.push("shell")', 'object is not extensible'],
    ['a property deleted', 'delete limits.maxSpend', "Cannot delete property 'maxSpend'"],
    ['a library class', 'nh.Runner.prototype.run = () => 1', "Cannot assign to read only property 'run'"],
    ['its prototype replaced', 'Object.setPrototypeOf(limits, { maxSpend: 1e9 })', 'is not extensible'],
    ['its __proto__ assigned', 'limits.__proto__ = { maxSpend: 1e9 }', 'is not extensible'],
    ["an array's prototype replaced", 'Object.setPrototypeOf(limits.tools, { length: 0 })', 'is not extensible'],
    ["Object.prototype's prototype set", 'Object.setPrototypeOf(Object.prototype, limits)', "Immutable prototype object 'Object.prototype'"],
    // The engine describes a function by its source text, lines and all.
    ["a frozen function's prototype replaced", 'Object.setPrototypeOf(Object.freeze(function named() {\n  return 1;\n}), null)', 'is not extensible'],
  ])('%s: the operation fails, the model is told what to do instead, and the attempt is recorded', async (_what, expression, message) => {
    const { limits, operation, reply, anomalies } = await evaluateAgainst(expression);
    expect(operation.status).toBe('failed');
    expect((operation.data as { failure: { message: string } }).failure.message).toContain(message);
    expect(reply).toContain('That value is frozen');
    expect(reply).toContain('nh_assign');
    const recorded = anomalies.filter((e) => e.status === 'frozen_value_write');
    expect(recorded).toHaveLength(1);
    expect(recorded[0]!.parentId).toBe(operation.subjectId);
    // After the record of the operation it belongs to.
    expect(recorded[0]!.sequence).toBeGreaterThan(operation.sequence);
    expect(limits).toEqual({ maxSpend: 10, tools: ['search'] });
  });

  it('the system prompt tells the model before it tries: expressions run strict, and a frozen value refuses writes', async () => {
    let system = '';
    const model = new ScriptedModel([
      (messages) => {
        system = String(messages.find((m) => m.role === 'system')?.content ?? '');
        return { toolCalls: [finish()] };
      },
    ]);
    await new nh.Runner({ executor: new nh.AgentExecutor({ model }) }).run(() => nh.step({ program: 'execute\nRead <config>.', values: { config: {} } }));
    expect(system).toContain('strict mode');
    expect(system).toMatch(/frozen value[^.]*refuses writes/);
  });

  it('a mutable value the step reads is changed in place, as the model is told it may: no attempt', async () => {
    const { config, operation, anomalies } = await evaluateAgainst('(config.retries = 99, config.tags.push("b"), config.retries)');
    expect(operation.status).toBe('completed');
    expect(config).toEqual({ retries: 99, tags: ['a', 'b'] });
    expect(anomalies.map((e) => e.status)).not.toContain('frozen_value_write');
  });

  it('an ordinary failure keeps the general guidance and records nothing', async () => {
    const { operation, reply, anomalies } = await evaluateAgainst('config.missing.deeper');
    expect(operation.status).toBe('failed');
    expect(reply).not.toContain('That value is frozen');
    expect(anomalies.map((e) => e.status)).not.toContain('frozen_value_write');
  });

  it('functions an expression defines run strict too: a plain call has no `this`', async () => {
    const { operation } = await evaluateAgainst('(function () { return this === undefined; })()');
    expect(operation.status).toBe('completed');
    expect((operation.data as { valuePreview?: string }).valuePreview).toBe('true');
  });

  it('in a core-only run (no Runner, no ledger): noted where such runs leave their anomalies', async () => {
    const { limits, noted } = await coreOnlyFrozenWrites('limits.maxSpend = 1e9');
    expect(noted).toHaveLength(1);
    expect((noted[0]!.detail as { message?: string }).message).toContain("Cannot assign to read only property 'maxSpend'");
    expect(limits.maxSpend).toBe(10);
  });

  it("a capability whose own (operator) code writes a frozen value: the model is not blamed, and no attempt is recorded", async () => {
    const table = Object.freeze({ rows: 1 });
    const bump = nh.defineCapability({ name: 'bump', description: 'operator code with a bug', request: z.object({}), run: () => ((table as { rows: number }).rows = 2) });
    let replied: unknown;
    const model = new ScriptedModel([
      () => ({ toolCalls: [toolCall('bump', {})] }),
      (messages) => {
        replied = messages.at(-1);
        return { toolCalls: [finish()] };
      },
    ]);
    const runner = new nh.Runner({ executor: new nh.AgentExecutor({ model }) });
    await runner.run(() => nh.step({ program: 'execute\nBump.' }), { grant: { capabilities: [bump], references: {} } });
    const events = runner.ledger.select({});
    expect(events.find((e) => e.kind === 'operation')?.status).toBe('failed');
    expect(JSON.stringify(replied)).not.toContain('That value is frozen');
    expect(events.filter((e) => e.kind === 'trace.anomaly').map((e) => e.status)).not.toContain('frozen_value_write');
  });

  /** A composition that dispatches `source` (which may read the frozen `limits`) and hands its exports to `use`. */
  async function dispatchedBy(source: string, use: (dispatched: Promise<{ exports: Record<string, unknown> }>) => Promise<void>) {
    const limits = Object.freeze({ maxSpend: 10 });
    const runner = new nh.Runner({ executor: new nh.AgentExecutor({ model: new ScriptedModel([]) }) });
    await runner.run(
      async (ctx) => {
        await use(ctx.dispatch({ language: 'javascript', intent: 'define', source, dependencies: [{ name: 'limits', kind: 'reference', type: 'object' }] }));
        return 'done';
      },
      { grant: { capabilities: [], references: { limits } } },
    );
    return { limits, events: runner.ledger.select({}) };
  }

  it('generated code the composition calls: the node fails, and the attempt is recorded under it', async () => {
    let caught: string | undefined;
    const source = `export function widen() { limits.maxSpend = 1e9; return limits.maxSpend; }\nexport async function widenLater() { await null; limits.maxSpend = 1e9; }`;
    const { limits, events } = await dispatchedBy(source, async (dispatched) => {
      const { exports } = await dispatched;
      try {
        (exports.widen as () => number)();
      } catch (e) {
        caught = (e as Error).name;
      }
      // Failing later, in a promise reaction: still the composition's call.
      await (exports.widenLater as () => Promise<void>)().catch(() => undefined);
    });
    expect(caught).toBe('TypeError');
    expect(limits.maxSpend).toBe(10);
    const failedNodes = events.filter((e) => e.kind === 'dispatch.end' && e.status === 'failed').map((e) => e.subjectId);
    expect(failedNodes).toHaveLength(2);
    const recorded = events.filter((e) => e.kind === 'trace.anomaly' && e.status === 'frozen_value_write');
    expect(recorded.map((e) => e.parentId)).toEqual(failedNodes);
  });

  it("generated code's module top level: the materialization is rejected, and the attempt is recorded under it", async () => {
    let failure: string | undefined;
    const { limits, events } = await dispatchedBy(`limits.maxSpend = 1e9;\nexport const widened = true;`, async (dispatched) => {
      await dispatched.then(
        () => undefined,
        (e: Error) => (failure = e.message),
      );
    });
    expect(failure).toContain("Cannot assign to read only property 'maxSpend'");
    expect(limits.maxSpend).toBe(10);
    const rejected = events.filter((e) => e.kind === 'dispatch.end' && e.status === 'rejected').map((e) => e.subjectId);
    expect(rejected).toHaveLength(1);
    expect(events.filter((e) => e.kind === 'trace.anomaly' && e.status === 'frozen_value_write').map((e) => e.parentId)).toEqual(rejected);
  });

  it('generated code the model runs through the execute_code capability: recorded under its node', async () => {
    const limits = Object.freeze({ maxSpend: 10 });
    const proposal = { language: 'javascript', intent: 'define-and-invoke', entry: 'widen', args: [], source: 'export function widen() { limits.maxSpend = 1e9; return 1; }', dependencies: [{ name: 'limits', kind: 'reference', type: 'object' }] };
    const model = new ScriptedModel([() => ({ toolCalls: [toolCall('execute_code', proposal)] }), () => ({ toolCalls: [finish()] })]);
    const runner = new nh.Runner({ executor: new nh.AgentExecutor({ model }) });
    await runner.run(() => nh.step({ program: 'execute\nRun it.' }), { grant: { capabilities: [nh.executeCodeCapability()], references: { limits } } });
    const events = runner.ledger.select({});
    const invocation = events.find((e) => e.kind === 'dispatch.end' && e.status === 'failed')!;
    expect(invocation).toBeDefined();
    const recorded = events.filter((e) => e.kind === 'trace.anomaly' && e.status === 'frozen_value_write');
    expect(recorded.map((e) => e.parentId)).toEqual([invocation.subjectId]);
    expect(limits.maxSpend).toBe(10);
  });

  it('from a SessionFunction body: its own write (approved source) fails as its error, not the model\'s; a model expression in its run is recorded', async () => {
    const model = new ScriptedModel([() => ({ toolCalls: [toolCall('nh_evaluate', { expression: 'Object.freeze({ limit: 1 }).limit = 2' })] }), () => ({ toolCalls: [finish()] })]);
    const session = new nh.Session({ executor: new nh.AgentExecutor({ model }) });
    const run = nh.Runner.prototype.run;
    const { body } = session.materialized(session.submit('async function body() {}'), {
      body: async () => {
        let own: string | undefined;
        try {
          (nh.Runner.prototype as unknown as Record<string, unknown>)['run'] = () => 1;
        } catch (e) {
          own = (e as Error).name;
        }
        await nh.step({ program: 'execute\nGo.' });
        return own;
      },
    });
    await expect((body as () => Promise<unknown>)()).resolves.toBe('TypeError');
    expect(nh.Runner.prototype.run).toBe(run);
    const failed = session.ledger.select({ kind: 'operation' }).filter((e) => e.status === 'failed');
    expect(failed).toHaveLength(1);
    const recorded = session.ledger.select({ kind: 'trace.anomaly' }).filter((e) => e.status === 'frozen_value_write');
    expect(recorded.map((e) => e.parentId)).toEqual([failed[0]!.subjectId]);
  });

  // An assignment, and a prototype set (whose refusal reads `… is not extensible`).
  const uncaught: Array<[string, string]> = [
    ['an assignment', 'Object.freeze(nh.Runner.prototype).run = () => 1;'],
    ['a prototype set', 'Object.setPrototypeOf(Object.freeze(nh.Runner.prototype), null);'],
  ];
  for (const place of STEP_PLACES) {
    it.each(uncaught)(`from ${placeName(place)}, uncaught, %s: recorded once, where it was first seen`, async (_what, write) => {
      const code = modelCodeIn(place, write);
      const { events } = await runStepWith(code, [() => ({ toolCalls: [toolCall('nh_evaluate', { expression: code.expression })] }), () => ({ toolCalls: [finish()] })]);
      const failed = events.filter((e) => e.kind === 'operation' && e.status === 'failed');
      expect(failed).toHaveLength(1);
      // Generated code's function is left by the exception first: recorded under its invocation node.
      const invocation = events.find((e) => e.kind === 'dispatch.start' && e.status === 'invocation');
      const where = place === 'expression' ? failed[0]!.subjectId : invocation!.subjectId;
      expect(events.filter((e) => e.kind === 'trace.anomaly' && e.status === 'frozen_value_write').map((e) => e.parentId)).toEqual([where]);
    });
  }
});

/**
 * Runs `body` (model code that refuses to show a frozen write: it returns 'hidden') in a step from `place`, and checks
 * the step went on, `nh.Runner.prototype.run` is unchanged, and the attempt was recorded once, as `expected`, under
 * the code's own place: the operation for an expression, the invocation's node for generated code.
 */
async function hiddenAndRecordedOnce(place: (typeof STEP_PLACES)[number], body: string, expected: { seenAt: string; message: string }): Promise<void> {
  const run = nh.Runner.prototype.run;
  const code = modelCodeIn(place, body);
  const { events } = await runStepWith(code, [() => ({ toolCalls: [toolCall('nh_evaluate', { expression: code.expression })] }), () => ({ toolCalls: [finish()] })]);
  const operation = events.find((e) => e.kind === 'operation')!;
  expect(operation.status).toBe('completed');
  expect((operation.data as { valuePreview?: string }).valuePreview).toBe('"hidden"');
  expect(nh.Runner.prototype.run).toBe(run);
  const recorded = events.filter((e) => e.kind === 'trace.anomaly' && e.status === 'frozen_value_write');
  expect(recorded).toHaveLength(1);
  expect(recorded[0]!.data).toMatchObject({ seenAt: expected.seenAt, message: expect.stringContaining(expected.message) });
  const invocation = events.find((e) => e.kind === 'dispatch.start' && e.status === 'invocation');
  expect(recorded[0]!.parentId).toBe(place === 'expression' ? operation.subjectId : invocation?.subjectId);
}

/**
 * Attack: model code catches the engine's refusal itself (try/catch, a promise's .catch, a caller it hands the function
 * to), so the operation completes and nothing reaches the host. Every catch block of model code (expressions and
 * generated code) hands what it caught to its guard first, and every function it defines hands over an exception
 * leaving it: an engine refusal of a frozen write is recorded where it is first seen, once, even when it is rethrown
 * and fails the operation later.
 */
describe('attack: model code that catches the refused write, to hide the attempt', () => {
  const write = 'Object.freeze(nh.Runner.prototype).run = () => 1;';
  const assign = 'Object.assign.bind(null, Object.freeze(nh.Runner.prototype))';
  // What the code does, and where its own guard sees the refusal first: the catch block it enters, or the function
  // the exception leaves (before a `.catch`, or a caller that resumed a generator, gets it).
  const catches: Array<[string, string, string]> = [
    ['catch (e)', `try { ${write} } catch (e) { return 'hidden'; }`, 'catch-block'],
    ['a catch without a binding', `try { ${write} } catch { return 'hidden'; }`, 'catch-block'],
    ['a destructured catch', `try { ${write} } catch ({ message }) { return typeof message === 'string' ? 'hidden' : 'odd'; }`, 'catch-block'],
    ['a catch after an await', `await null; try { ${write} } catch { return 'hidden'; }`, 'catch-block'],
    ['a catch in a nested function', `const f = () => { try { ${write} } catch { return 'hidden'; } }; return f();`, 'catch-block'],
    ["a promise's .catch", `return (async () => { ${write} })().catch(() => 'hidden');`, 'function-exit'],
    ["a promise's .catch, the write in a concise arrow", `return new Promise((resolve) => resolve()).then(() => (${write.slice(0, -1)})).catch(() => 'hidden');`, 'function-exit'],
    ['Promise.allSettled', `const [r] = await Promise.allSettled([(async () => { ${write} })()]); return r.status === 'rejected' ? 'hidden' : 'odd';`, 'function-exit'],
    ['a generator the code resumes and catches', `function* g() { yield 1; ${write} } const it = g(); it.next(); try { it.next(); } catch { return 'hidden'; }`, 'function-exit'],
    // No function of the model's throws: a bound built-in is the reaction, so the rejection handler's call is seen.
    ["a bound built-in reaction, then a .catch", `return Promise.resolve({ run: () => 1 }).then(${assign}).catch(() => 'hidden');`, 'rejection-handler'],
    ["a bound built-in reaction, then .then's rejection handler", `return Promise.resolve({ run: () => 1 }).then(${assign}).then(undefined, () => 'hidden');`, 'rejection-handler'],
    ['a bound built-in reaction, then Promise.allSettled', `const [r] = await Promise.allSettled([Promise.resolve({ run: () => 1 }).then(${assign})]); return r.status === 'rejected' ? 'hidden' : 'odd';`, 'rejection-handler'],
  ];
  for (const place of STEP_PLACES) {
    it.each(catches)(`from ${placeName(place)}, %s: the step goes on, and the attempt is recorded once`, (_form, body, seenAt) =>
      hiddenAndRecordedOnce(place, body, { seenAt, message: "Cannot assign to read only property 'run'" }),
    );

    it(`from ${placeName(place)}, caught and rethrown: the operation fails, and the attempt is recorded once`, async () => {
      const code = modelCodeIn(place, `try { ${write} } catch (e) { throw e; }`);
      const { events } = await runStepWith(code, [() => ({ toolCalls: [toolCall('nh_evaluate', { expression: code.expression })] }), () => ({ toolCalls: [finish()] })]);
      expect(events.find((e) => e.kind === 'operation')!.status).toBe('failed');
      expect(events.filter((e) => e.kind === 'trace.anomaly' && e.status === 'frozen_value_write')).toHaveLength(1);
    });

    it(`from ${placeName(place)}, a TypeError the code throws and catches itself: nothing recorded`, async () => {
      const code = modelCodeIn(place, `try { throw new TypeError('x is not a function'); } catch { return 'hidden'; }`);
      const { events } = await runStepWith(code, [() => ({ toolCalls: [toolCall('nh_evaluate', { expression: code.expression })] }), () => ({ toolCalls: [finish()] })]);
      expect(events.find((e) => e.kind === 'operation')!.status).toBe('completed');
      expect(events.filter((e) => e.kind === 'trace.anomaly').map((e) => e.status)).not.toContain('frozen_value_write');
    });
  }

  it('in a SessionFunction body: its own try/catch (approved source) records nothing; the model hiding one in its run is recorded', async () => {
    const expression = '(() => { try { Object.freeze(nh.Runner.prototype).run = () => 1; } catch { return 0; } })()';
    const model = new ScriptedModel([() => ({ toolCalls: [toolCall('nh_evaluate', { expression })] }), () => ({ toolCalls: [finish()] })]);
    const session = new nh.Session({ executor: new nh.AgentExecutor({ model }) });
    const { body } = session.materialized(session.submit('async function body() {}'), {
      body: async () => {
        try {
          (nh.Runner.prototype as unknown as Record<string, unknown>)['run'] = () => 1;
        } catch {
          /* the body's own, and approved */
        }
        // Approved source, not refused: but the harness claimed the record of what was seen as it loaded.
        claimed = nh.claimFrozenWriteSight();
        // And the means to have a membrane answer a Reflect write `false` (which no guard records as a frozen write).
        claimedReflect = nh.claimReflectWriteAnswer();
        await nh.step({ program: 'execute\nGo.', references: { nh } });
      },
    });
    let claimed: unknown = 'not called';
    let claimedReflect: unknown = 'not called';
    await (body as () => Promise<unknown>)();
    expect(claimed).toBeUndefined();
    expect(claimedReflect).toBeUndefined();
    const operation = session.ledger.select({ kind: 'operation' })[0]!;
    expect(operation.status).toBe('completed');
    const recorded = session.ledger.select({ kind: 'trace.anomaly' }).filter((e) => e.status === 'frozen_value_write');
    expect(recorded.map((e) => [e.parentId, (e.data as { seenAt?: string }).seenAt])).toEqual([[operation.subjectId, 'catch-block']]);
  });

  it("in a SessionFunction body: its own bound built-in reaction and .catch (approved source) record nothing; the model's in its run is recorded", async () => {
    const expression = `Promise.resolve({ run: () => 1 }).then(${assign}).catch(() => 'hidden')`;
    const model = new ScriptedModel([() => ({ toolCalls: [toolCall('nh_evaluate', { expression })] }), () => ({ toolCalls: [finish()] })]);
    const session = new nh.Session({ executor: new nh.AgentExecutor({ model }) });
    const { body } = session.materialized(session.submit('async function body() {}'), {
      body: async () => {
        const own = await Promise.resolve({ run: () => 1 })
          .then(Object.assign.bind(null, nh.Runner.prototype))
          .catch(() => 'caught');
        await nh.step({ program: 'execute\nGo.', references: { nh } });
        return own;
      },
    });
    await expect((body as () => Promise<unknown>)()).resolves.toBe('caught');
    const operation = session.ledger.select({ kind: 'operation' })[0]!;
    expect((operation.data as { valuePreview?: string }).valuePreview).toBe('"hidden"');
    const recorded = session.ledger.select({ kind: 'trace.anomaly' }).filter((e) => e.status === 'frozen_value_write');
    expect(recorded.map((e) => [e.parentId, (e.data as { seenAt?: string }).seenAt])).toEqual([[operation.subjectId, 'rejection-handler']]);
  });

  it('operator code that catches what a model function threw: recorded once, under the operation', async () => {
    const code = modelCodeIn('expression', `return quietly(() => { ${write} });`);
    code.references.quietly = (fn: () => unknown) => {
      try {
        return fn();
      } catch {
        return 'hidden';
      }
    };
    const { events } = await runStepWith(code, [() => ({ toolCalls: [toolCall('nh_evaluate', { expression: code.expression })] }), () => ({ toolCalls: [finish()] })]);
    const operation = events.find((e) => e.kind === 'operation')!;
    expect(operation.status).toBe('completed');
    const recorded = events.filter((e) => e.kind === 'trace.anomaly' && e.status === 'frozen_value_write');
    expect(recorded.map((e) => e.parentId)).toEqual([operation.subjectId]);
  });

  it('in a core-only run: noted where such runs leave their anomalies', async () => {
    const { noted } = await coreOnlyFrozenWrites('(() => { try { limits.maxSpend = 1e9; } catch { return 0; } })()');
    expect(noted).toHaveLength(1);
    expect(noted[0]!.detail).toMatchObject({ seenAt: 'catch-block' });
  });
});

/**
 * Attack: model code writes a frozen value through `Reflect`, whose refusal is a `false` result instead of a TypeError:
 * no catch block or function exit ever sees it, so the attempt left no record. The harness's `Reflect.set`,
 * `defineProperty`, `deleteProperty` and `setPrototypeOf` note a `false` they answer to model code, however reached.
 */
describe('attack: model code writing a frozen value through Reflect, which answers false instead of throwing', () => {
  const frozen = 'Object.freeze(nh.Runner.prototype)';
  const forms: Array<[string, string, string]> = [
    ['Reflect.set', `Reflect.set(${frozen}, 'run', () => 1)`, "Reflect.set refused to set 'run'"],
    ['Reflect.defineProperty', `Reflect.defineProperty(${frozen}, 'run', { value: () => 1 })`, "Reflect.defineProperty refused to define 'run'"],
    ['Reflect.deleteProperty', `Reflect.deleteProperty(${frozen}, 'run')`, "Reflect.deleteProperty refused to delete 'run'"],
    ['Reflect.setPrototypeOf', `Reflect.setPrototypeOf(${frozen}, null)`, 'Reflect.setPrototypeOf refused to set the prototype'],
    ['a destructured alias', `(() => { const { set } = Reflect; return set(${frozen}, 'run', () => 1); })()`, "Reflect.set refused to set 'run'"],
    ['Reflect.apply of it', `Reflect.apply(Reflect.set, undefined, [${frozen}, 'run', () => 1])`, "Reflect.set refused to set 'run'"],
    ['globalThis.Reflect', `globalThis.Reflect.set(${frozen}, 'run', () => 1)`, "Reflect.set refused to set 'run'"],
    ['a pass-through proxy of the frozen value', `Reflect.set(new Proxy(${frozen}, {}), 'run', () => 1)`, "Reflect.set refused to set 'run'"],
    ['a symbol key', `Reflect.set(${frozen}, Symbol.iterator, () => 1)`, 'Reflect.set refused to set Symbol(Symbol.iterator)'],
  ];
  for (const place of STEP_PLACES) {
    it.each(forms)(`from ${placeName(place)}, %s: the step goes on, and the attempt is recorded once`, (_form, call, message) =>
      hiddenAndRecordedOnce(place, `return ${call} ? 'written' : 'hidden';`, { seenAt: 'reflect-result', message }),
    );

    it(`from ${placeName(place)}, a write Reflect performs (a mutable value of the code's own): nothing recorded`, async () => {
      const code = modelCodeIn(place, `const own = { a: 1 }; return Reflect.set(own, 'a', 2) && Reflect.deleteProperty(own, 'a') ? 'written' : 'refused';`);
      const { events } = await runStepWith(code, [() => ({ toolCalls: [toolCall('nh_evaluate', { expression: code.expression })] }), () => ({ toolCalls: [finish()] })]);
      expect((events.find((e) => e.kind === 'operation')!.data as { valuePreview?: string }).valuePreview).toBe('"written"');
      expect(events.filter((e) => e.kind === 'trace.anomaly').map((e) => e.status)).not.toContain('frozen_value_write');
    });
  }

  it('Reflect keeps the face of the built-ins: names, lengths, native source, not constructible, same answers', () => {
    for (const [name, length] of [['set', 3], ['defineProperty', 3], ['deleteProperty', 2], ['setPrototypeOf', 2]] as const) {
      const fn = Reflect[name] as unknown as (...args: unknown[]) => unknown;
      expect(fn.name).toBe(name);
      expect(fn.length).toBe(length);
      expect(Function.prototype.toString.call(fn)).toContain('[native code]');
      expect(() => Reflect.construct(fn, [])).toThrow(TypeError);
    }
    const frozenValue = Object.freeze({ a: 1 });
    const receiver: Record<string, number> = {};
    expect(Reflect.set(frozenValue, 'a', 2)).toBe(false);
    expect(Reflect.set({ a: 1 }, 'a', 2, receiver)).toBe(true);
    expect(receiver['a']).toBe(2);
    expect(() => Reflect.set(1 as unknown as object, 'a', 2)).toThrow(TypeError);
  });

  it('host code (a SessionFunction body, approved source) is answered false and records nothing; the model doing the same in its run is recorded', async () => {
    const expression = `Reflect.set(${frozen}, 'run', () => 1) ? 'written' : 'hidden'`;
    const model = new ScriptedModel([() => ({ toolCalls: [toolCall('nh_evaluate', { expression })] }), () => ({ toolCalls: [finish()] })]);
    const session = new nh.Session({ executor: new nh.AgentExecutor({ model }) });
    const { body } = session.materialized(session.submit('async function body() {}'), {
      body: async () => {
        const own = Reflect.set(nh.Runner.prototype, 'run', () => 1);
        await nh.step({ program: 'execute\nGo.', references: { nh } });
        return own;
      },
    });
    await expect((body as () => Promise<unknown>)()).resolves.toBe(false);
    const operation = session.ledger.select({ kind: 'operation' })[0]!;
    expect((operation.data as { valuePreview?: string }).valuePreview).toBe('"hidden"');
    const recorded = session.ledger.select({ kind: 'trace.anomaly' }).filter((e) => e.status === 'frozen_value_write');
    expect(recorded.map((e) => [e.parentId, (e.data as { seenAt?: string }).seenAt])).toEqual([[operation.subjectId, 'reflect-result']]);
  });

  it('a capability body (operator code) that Reflect answers false: the model is not blamed', async () => {
    const table = Object.freeze({ rows: 1 });
    const bump = nh.defineCapability({ name: 'bump', description: 'operator code', request: z.object({}), run: () => Reflect.set(table, 'rows', 2) });
    const model = new ScriptedModel([() => ({ toolCalls: [toolCall('bump', {})] }), () => ({ toolCalls: [finish()] })]);
    const runner = new nh.Runner({ executor: new nh.AgentExecutor({ model }) });
    await runner.run(() => nh.step({ program: 'execute\nBump.' }), { grant: { capabilities: [bump], references: {} } });
    expect(runner.ledger.select({ kind: 'trace.anomaly' }).map((e) => e.status)).not.toContain('frozen_value_write');
  });

  it('in a core-only run: noted where such runs leave their anomalies', async () => {
    const { limits, noted } = await coreOnlyFrozenWrites("Reflect.set(limits, 'maxSpend', 1e9)");
    expect(noted).toHaveLength(1);
    expect(noted[0]!.detail).toMatchObject({ seenAt: 'reflect-result', message: expect.stringContaining("'maxSpend'") });
    expect(limits.maxSpend).toBe(10);
  });
});

/**
 * Attack: a model expression rebinds a name of its step (a granted reference, a read binding) by plain assignment
 * instead of through nh_assign, the typed boundary. The expression's scope refuses it with a TypeError; the refusal is
 * recorded as `expression_binding_write` where it happens, so code that catches it still leaves the attempt behind.
 */
describe('attack: a model expression assigning a name of its step outside nh_assign', () => {
  it.each([
    ['a granted reference', 'limits = { maxSpend: 1e9, tools: [] }', 'limits'],
    ['a read binding', 'config = { retries: 0, tags: [] }', 'config'],
    ['a name the step does not have', 'widened = true', 'widened'],
  ])('%s: the operation fails, the model is told to use nh_assign, and the attempt is recorded', async (_what, expression, name) => {
    const { limits, config, operation, reply, anomalies } = await evaluateAgainst(expression);
    expect(operation.status).toBe('failed');
    expect(reply).toContain('use nh_assign');
    const recorded = anomalies.filter((e) => e.status === 'expression_binding_write');
    expect(recorded.map((e) => [e.parentId, (e.data as { name?: string }).name])).toEqual([[operation.subjectId, name]]);
    expect(limits).toEqual({ maxSpend: 10, tools: ['search'] });
    expect(config).toEqual({ retries: 2, tags: ['a'] });
  });

  it('caught by the expression itself: the step goes on, and the attempt is still recorded', async () => {
    const { operation, anomalies } = await evaluateAgainst("(() => { try { limits = {}; } catch { return 'hidden'; } })()");
    expect(operation.status).toBe('completed');
    expect((operation.data as { valuePreview?: string }).valuePreview).toBe('"hidden"');
    expect(anomalies.filter((e) => e.status === 'expression_binding_write').map((e) => e.parentId)).toEqual([operation.subjectId]);
  });

  it("names the expression declares itself are its own: nothing recorded", async () => {
    const { operation, anomalies } = await evaluateAgainst('(() => { let n = 1; n = 2; for (let i = 0; i < 2; i++) n += i; return n; })()');
    expect((operation.data as { valuePreview?: string }).valuePreview).toBe('3');
    expect(anomalies.map((e) => e.status)).not.toContain('expression_binding_write');
  });

  it('from a SessionFunction run: the model expression in it is recorded under its operation', async () => {
    const model = new ScriptedModel([() => ({ toolCalls: [toolCall('nh_evaluate', { expression: 'limits = null' })] }), () => ({ toolCalls: [finish()] })]);
    const session = new nh.Session({ executor: new nh.AgentExecutor({ model }) });
    const limits = Object.freeze({ maxSpend: 10 });
    const { body } = session.materialized(session.submit('async function body() {}'), {
      body: async () => {
        await nh.step({ program: 'execute\nGo.', references: { limits } });
      },
    });
    await (body as () => Promise<unknown>)();
    const operation = session.ledger.select({ kind: 'operation' })[0]!;
    expect(operation.status).toBe('failed');
    const recorded = session.ledger.select({ kind: 'trace.anomaly' }).filter((e) => e.status === 'expression_binding_write');
    expect(recorded.map((e) => e.parentId)).toEqual([operation.subjectId]);
  });
});
