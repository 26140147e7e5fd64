/**
 * Attack: model code turns text it built into code through the library's own compilers, past the textual checks an
 * expression or a proposal gets, outside any inspected operation and outside any dispatch node:
 * - `nh.compileExpression(text)` returned a function running `text` (the compiler behind nh_evaluate);
 * - `nh.compileGenerated(proposal, options)` compiled and ran generated source with no dispatch record, under
 *   options the model chose (its own liveness answer and interior wrapper).
 * Each is refused to model code with a RawDynamicExecutionRefusedError and a `raw_dynamic_execution` anomaly naming
 * the compiler; nothing of the text runs. The executor's own nh_evaluate and the dispatcher keep them.
 */
import { describe, expect, it } from 'vitest';
import * as nh from '../../kernel/src/index.js';
import { STEP_PLACES, evaluateInStep, modelCodeIn, placeName } from './model-code.js';

const RAN = `globalThis.__nhFromText = true`;

const COMPILERS: Record<string, string> = {
  compileExpression: `await nh.compileExpression('(' + ${JSON.stringify(RAN)} + ')')({})`,
  compileGenerated: `nh.compileGenerated({ language: 'javascript', intent: 'define', source: ${JSON.stringify(`${RAN};\nexport const x = 1;`)} }, { onAnomaly: () => {}, isLive: () => true, runInterior: (fn) => fn() })`,
};

describe("attack: model code compiling text with the library's own compilers", () => {
  for (const place of STEP_PLACES) {
    for (const [compiler, call] of Object.entries(COMPILERS)) {
      it(`${compiler}, from ${placeName(place)}: refused and recorded; the text never runs`, async () => {
        delete (globalThis as { __nhFromText?: boolean }).__nhFromText;
        const code = modelCodeIn(place, `try { ${call}; return 'compiled'; } catch (e) { return e.name + ':' + e.operation; }`);
        const { events, previews } = await evaluateInStep(code);
        expect(previews).toEqual([JSON.stringify(`RawDynamicExecutionRefusedError:${compiler}`)]);
        expect((globalThis as { __nhFromText?: boolean }).__nhFromText).toBeUndefined();
        const anomalies = events.filter((e) => e.kind === 'trace.anomaly');
        expect(anomalies.map((e) => [e.status, (e.data as unknown as { operation: string }).operation])).toEqual([['raw_dynamic_execution', compiler]]);
      });
    }
  }

  it('operator code keeps the expression compiler', async () => {
    expect(await nh.compileExpression('a + 1')({ a: 41 })).toBe(42);
  });
});
