/**
 * Attack: model code takes the interior mark into its own hands through the public module's controls:
 * - `nh.reenterInterior(null, fn)` ran `fn` unmarked, past every refusal that asks whether model code is calling: the
 *   step context's executor members among them (`markFinished()` so left a step that never ended, and its run hung);
 * - `nh.runInterior(mark, fn)` ran under a mark of the model's making (no liveness probe: callbacks it leaves behind
 *   outlive its execution; anomalies name whom it chose);
 * - `nh.noteUnmarkedModelCode(mark)` chose the mark the run-time tier treats it under;
 * - `nh.reportRefusal(kind, detail)` wrote a trace anomaly of the model's choosing into the ledger;
 * - `nh.setRefusalSink` / `nh.setLateRefusalSink` changed nothing (the harness's stand) but left no evidence, and so
 *   did `nh.claimFrozenWriteSight()` and `nh.claimReflectWriteAnswer()` (they returned nothing: the harness had
 *   claimed them).
 * Each refuses model code (an expression, generated code an expression called) with a HostIntegrityError and an
 * `operator_control_in_run` anomaly naming the control; operator code keeps them.
 */
import { describe, expect, it } from 'vitest';
import * as nh from '../../kernel/src/index.js';
import { reenterInterior as coreReenterInterior } from '../../kernel/src/core/index.js';
import { toolCall } from '../../kernel/src/testing.js';
import { STEP_PLACES, modelCodeIn, placeName, runStepWith, type StepPlace } from './model-code.js';

const finish = () => toolCall('nh_output', { result: { kind: 'pass' } });
const FORGED = `{ kind: 'generated', nodeId: 'forged', definitionId: 'forged' }`;

const CONTROLS: Record<string, string> = {
  reenterInterior: `nh.reenterInterior(null, () => { nh.currentStepContext().markFinished(); })`,
  runInterior: `nh.runInterior(${FORGED}, () => setTimeout(() => {}, 0))`,
  noteUnmarkedModelCode: `nh.noteUnmarkedModelCode(${FORGED})`,
  reportRefusal: `nh.reportRefusal('forged_anomaly', { executionId: 'someone-else' })`,
  // Already installed by the harness (the first installation stands), so these changed nothing, silently.
  setRefusalSink: `nh.setRefusalSink(() => {})`,
  setLateRefusalSink: `nh.setLateRefusalSink({ capture() {}, report() {}, refused: (e) => e })`,
  // Claimed by the harness as it loads; with it, model code could mark its refused write as seen, off the ledger.
  claimFrozenWriteSight: `nh.claimFrozenWriteSight()`,
  // Claimed by the harness as it loads; with it, a membrane's refused write could answer false, which no guard records.
  claimReflectWriteAnswer: `nh.claimReflectWriteAnswer()`,
};
const WRITES_RECORD = new Set(['reportRefusal', 'setRefusalSink', 'setLateRefusalSink', 'claimFrozenWriteSight', 'claimReflectWriteAnswer']);

async function controlFrom(place: StepPlace, call: string) {
  const code = modelCodeIn(place, `try { ${call}; return 'allowed'; } catch (e) { return e.name + ':' + e.attempt; }`);
  const { outcome, events, previews } = await runStepWith(
    code,
    [
      () => ({ toolCalls: [toolCall('nh_evaluate', { expression: code.expression })] }),
      () => ({ toolCalls: [toolCall('nh_assign', { target_path: 'answer', expression: '42' }), finish()] }),
    ],
    { program: 'execute\nSet <:answer>.' },
  );
  return { outcome, events, said: previews[0] };
}

describe("attack: model code handling the interior mark through the public module's controls", () => {
  for (const place of STEP_PLACES) {
    for (const [control, call] of Object.entries(CONTROLS)) {
      it(`${control}, from ${placeName(place)}: refused and recorded; the step ends as the model's operations say`, async () => {
        const { outcome, events, said } = await controlFrom(place, call);
        const attempt = WRITES_RECORD.has(control) ? 'ledger-append' : 'choose-interior-mark';
        expect(said).toBe(JSON.stringify(`HostIntegrityError:${attempt}`));
        expect(outcome).toBe('returned:{"answer":42}');
        const anomalies = events.filter((e) => e.kind === 'trace.anomaly');
        expect(anomalies.map((e) => [e.status, (e.data as unknown as { control: string }).control])).toEqual([['operator_control_in_run', control]]);
        expect(events.filter((e) => e.kind === 'execution.end').map((e) => e.status)).toEqual(['completed']);
      });
    }
  }

  it('operator code keeps the controls', async () => {
    const mark = { kind: 'generated', nodeId: 'operator-node', definitionId: 'def' } as const;
    const seen = nh.runInterior(mark, () => nh.currentInterior());
    expect(seen).toMatchObject(mark);
    expect(nh.reenterInterior(seen!, () => nh.currentInterior())).toBe(seen);
    expect(nh.runOutsideInterior(() => 7)).toBe(7);
  });

  it("the core's reenterInterior takes only a mark runInterior made: not null, not a look-alike", () => {
    expect(() => coreReenterInterior(null as never, () => 1)).toThrow(TypeError);
    expect(() => coreReenterInterior({ kind: 'generated', nodeId: 'n', definitionId: 'd' }, () => 1)).toThrow(TypeError);
  });
});
