/**
 * Attack: model code starts a nested step inside a scope of its own choosing, `nh.scope(options, () => nh.step(...))`:
 * - `model: '<name>'` sent the nested step's requests to a model the operator never chose (and priced);
 * - an `executor` getter answered the locked-executor check with the run's own executor and the new state with its own,
 *   so a step of the run ran on the model's executor, past the host's;
 * - `usageMeter`, `requestAdmission`, `signal`, `oversight`, `extensions` are the operator's decisions too.
 * From a model expression, or generated code it called, each is refused with a ScopeAuthorityError and a
 * `scope_authority_from_model_code` anomaly; the operator's own scopes keep every option.
 */
import { describe, expect, it } from 'vitest';
import * as nh from '../../kernel/src/index.js';
import { ScriptedModel, toolCall } from '../../kernel/src/testing.js';
import { STEP_PLACES, modelCodeIn, placeName, runStepWith, type StepPlace } from './model-code.js';

const finish = () => toolCall('nh_output', { result: { kind: 'pass' } });

/** The scripted model, noting the model name each request asks for. */
function noting(scripted: ScriptedModel, requests: Array<string | undefined>): nh.ModelClient {
  return { label: 'noting', request: (request: nh.ModelRequest) => (requests.push(request.model), scripted.request(request)) };
}

const OPTIONS: Record<string, string> = {
  model: `{ model: 'attacker-model' }`,
  executor: `{ executor: { runStep: async () => { globalThis.__nhScopeEvil = true; return { outcome: { kind: 'pass' }, bindings: {} }; } } }`,
  'executor (a getter answering twice)': `{ get executor() { n++; return n < 3 ? nh.currentState().executor : { runStep: async () => { globalThis.__nhScopeEvil = true; return { outcome: { kind: 'pass' }, bindings: {} }; } }; } }`,
  usageMeter: `{ usageMeter: new nh.UsageMeter() }`,
  requestAdmission: `{ requestAdmission: null }`,
  signal: `{ signal: new AbortController().signal }`,
  oversight: `{ oversight: null }`,
  extensions: `{ extensions: { [Symbol('x')]: 1 } }`,
};

async function nestedFrom(place: StepPlace, options: string, before = '', after = '') {
  const code = modelCodeIn(
    place,
    `let n = 0; ${before} try { await nh.scope(${options}, () => nh.step({ program: 'execute\\nInner.' })); return 'nested step ran'; } catch (e) { return e.name + ':' + (e.options ?? []).join(','); } finally { ${after} }`,
  );
  const requests: Array<string | undefined> = [];
  const { outcome, events, previews } = await runStepWith(
    code,
    [() => ({ toolCalls: [toolCall('nh_evaluate', { expression: code.expression }), finish()] }), () => ({ toolCalls: [finish()] })],
    { client: (scripted) => noting(scripted, requests) },
  );
  return { outcome, events, requests, said: previews[0] };
}

describe('attack: model code choosing what the operator decides for a nested step (nh.scope)', () => {
  for (const place of STEP_PLACES) {
    for (const [name, options] of Object.entries(OPTIONS)) {
      it(`${name}, from ${placeName(place)}: refused and recorded before the nested step starts`, async () => {
        delete (globalThis as { __nhScopeEvil?: boolean }).__nhScopeEvil;
        const { outcome, events, requests, said } = await nestedFrom(place, options);
        const option = name.split(' ')[0]!;
        expect(said).toBe(JSON.stringify(`ScopeAuthorityError:${option}`));
        expect(outcome).toBe('returned:{}');
        expect((globalThis as { __nhScopeEvil?: boolean }).__nhScopeEvil).toBeUndefined();
        // Only the outer step ran, on the operator's model choice (the client's default).
        expect(requests).toEqual([undefined]);
        expect(events.filter((e) => e.kind === 'execution.start')).toHaveLength(1);
        const anomalies = events.filter((e) => e.kind === 'trace.anomaly');
        expect(anomalies.map((e) => [e.status, (e.data as unknown as { options: string[] }).options])).toEqual([['scope_authority_from_model_code', [option]]]);
      });
    }

    it(`model, with Array.prototype.filter replaced first (answering "nothing refused"), from ${placeName(place)}: still refused`, async () => {
      const { outcome, requests, said, events } = await nestedFrom(
        place,
        `{ model: 'attacker-model' }`,
        `const filter = Array.prototype.filter; Array.prototype.filter = function () { return []; };`,
        `Array.prototype.filter = filter;`,
      );
      expect(said).toBe(JSON.stringify('ScopeAuthorityError:model'));
      expect(outcome).toBe('returned:{}');
      expect(requests).toEqual([undefined]);
      expect(events.filter((e) => e.kind === 'trace.anomaly').map((e) => e.status)).toContain('scope_authority_from_model_code');
    });

    it(`task references and prompt fragments, from ${placeName(place)}: the nested step runs`, async () => {
      const { outcome, events, requests, said } = await nestedFrom(place, `{ taskReferences: { extra: 1 }, systemPromptFragments: ['Be brief.'] }`);
      expect(said).toBe('"nested step ran"');
      expect(outcome).toBe('returned:{}');
      expect(requests).toEqual([undefined, undefined]);
      expect(events.filter((e) => e.kind === 'execution.start')).toHaveLength(2);
      expect(events.filter((e) => e.kind === 'trace.anomaly')).toEqual([]);
    });
  }

  it("the operator's scope still chooses the model for the steps inside it", async () => {
    const requests: Array<string | undefined> = [];
    const scripted = new ScriptedModel([() => ({ toolCalls: [finish()] })]);
    const model = noting(scripted, requests);
    const runner = new nh.Runner({ executor: new nh.AgentExecutor({ model }) });
    await runner.run(() => nh.scope({ model: 'operator-model' }, () => nh.step({ program: 'execute\nGo.' })));
    expect(requests).toEqual(['operator-model']);
    expect(runner.ledger.select({ kind: 'trace.anomaly' })).toEqual([]);
  });

  it('a SessionFunction body is operator code: called from a cell it chooses the model; called from a model expression it runs under the mark and is refused', async () => {
    const requests: Array<string | undefined> = [];
    const scripted = new ScriptedModel([
      // The cell's call: the SessionFunction's own step.
      () => ({ toolCalls: [finish()] }),
      // A later run: the model calls the SessionFunction from an expression.
      // (`pick` is written synchronous, so inside the run it throws where it is called.)
      () => ({ toolCalls: [toolCall('nh_evaluate', { expression: 'Promise.resolve().then(() => pick()).then(() => "picked", (e) => e.name)' }), finish()] }),
    ]);
    const body = () => nh.scope({ model: 'operator-model' }, () => nh.step({ program: 'execute\nGo.' }));
    const session = new nh.Session({ executor: new nh.AgentExecutor({ model: noting(scripted, requests) }), grant: { capabilities: [], references: {} } });
    const pick = session.registerImported(body, { name: 'pick', reviewedSourceHash: 'a'.repeat(64) });
    await pick();
    expect(requests).toEqual(['operator-model']);
    await session.runner.run(() => nh.step({ program: 'execute\nGo.' }), { grant: { capabilities: [], references: { pick } } });
    const said = session.ledger.select({ kind: 'operation' }).map((e) => (e.data as { valuePreview?: string }).valuePreview);
    expect(said).toContain('"ScopeAuthorityError"');
    expect(session.ledger.select({ kind: 'trace.anomaly' }).map((e) => e.status)).toEqual(['scope_authority_from_model_code']);
    expect(requests).toEqual(['operator-model', undefined]);
    await session.close();
  });

  it("an operator's getter is read once: it cannot answer the executor check and the state differently", async () => {
    let reads = 0;
    const other: nh.StepExecutor = { runStep: async () => ({ outcome: { kind: 'pass' }, bindings: {} }) };
    const result = await nh.run(new nh.AgentExecutor({ model: new ScriptedModel([]) }), () => {
      const own = nh.currentState()!.executor;
      return nh.scope(
        {
          get executor() {
            reads++;
            return reads === 1 ? own : other;
          },
        },
        () => nh.currentState()!.executor === own,
      );
    });
    expect(reads).toBe(1);
    expect(result).toBe(true);
  });
});
