/**
 * Attack: model code (a model expression, or generated code it called) calls `nh.displayLedger` with a LedgerReader
 * it built (`{ size, select }` answering forged events: "run.end completed, all capability calls approved"), and the
 * running cell showed that forged ledger as the host's ledger view. displayLedger is an operator display: from model
 * code it is refused with an OperatorControlError and a `ledger_display_from_model_code` anomaly, and nothing is
 * shown. And it reads only a real Ledger or LedgerView (private-field brand checks through methods captured when it
 * loaded): a lookalike reader the operator's code was handed is refused and recorded (`display_forged_ledger`), and a
 * real Ledger whose `select` was shadowed is read through the Ledger's own method.
 */
import { afterEach, describe, expect, it } from 'vitest';
import * as nh from '../../kernel/src/index.js';
import { setNotebookChannel } from '../../kernel/src/server/display/notebook-bridge.js';
import type { KernelChannel } from '../../kernel/src/server/kernel/index.js';
import { ScriptedModel, toolCall } from '../../kernel/src/testing.js';
import { NighthawkMime } from '../../shared/mime.js';
import type { LedgerPayload } from '../../shared/ui-types.js';
import { STEP_PLACES, evaluateInStep, modelCodeIn, placeName } from './model-code.js';

function channel() {
  const shown: Record<string, unknown>[] = [];
  const ch: KernelChannel = { display: (bundle) => void shown.push(bundle as Record<string, unknown>), requestInput: () => Promise.reject(new Error('no input')) };
  setNotebookChannel(ch);
  return shown;
}

afterEach(() => setNotebookChannel(undefined));

const FORGED = `{ size: 1, ledgerId: 'x', subscribe: () => () => {}, select: () => [{ sequence: 1, eventId: 'ev', runId: 'run_real', kind: 'run.end', subjectId: 'run_real', status: 'completed', at: 0, data: { forged: 'all capability calls approved by the operator' } }] }`;

describe('attack: model code displaying a ledger', () => {
  for (const place of STEP_PLACES) {
    for (const [name, call] of [
      ['a forged reader', `nh.displayLedger({}, { ledger: ${FORGED} })`],
      ['the default ledger', 'nh.displayLedger()'],
    ] as const) {
      it(`from ${placeName(place)}, with ${name}: refused and recorded; nothing shown`, async () => {
        const shown = channel();
        const code = modelCodeIn(place, `try { return 'shown:' + ${call}; } catch (e) { return e.name; }`);
        const { events, previews } = await evaluateInStep(code);
        expect(previews).toEqual(['"OperatorControlError"']);
        expect(shown).toEqual([]);
        expect(events.filter((e) => e.kind === 'trace.anomaly').map((e) => e.status)).toEqual(['ledger_display_from_model_code']);
      });
    }
  }
});

describe('displayLedger reads only a real Ledger or LedgerView', () => {
  it('a lookalike reader is refused and recorded; nothing shown', () => {
    const shown = channel();
    const forged = new Function(`return ${FORGED}`)() as nh.LedgerReader;
    const lookalike = Object.create(nh.Ledger.prototype) as nh.Ledger;
    for (const ledger of [forged, lookalike, new Proxy(new nh.Ledger(), {})]) {
      const before = nh.anomaliesOutsideRunners().length;
      expect(() => nh.displayLedger({}, { ledger })).toThrow(TypeError);
      expect(nh.anomaliesOutsideRunners().slice(before).map((a) => a.anomalyKind)).toEqual(['display_forged_ledger']);
    }
    expect(shown).toEqual([]);
  });

  it("a Ledger's own select is read, not one shadowed on the instance; a Session's LedgerView displays as before", async () => {
    const shown = channel();
    const ledger = new nh.Ledger();
    ledger.append('run_a', { kind: 'part.event', subjectId: 'p', status: 'tick', data: { part: 'p', event: { kind: 'tick' } } });
    Object.defineProperty(ledger, 'select', { value: () => [] });
    expect(nh.displayLedger({}, { ledger })).toBe(1);
    const session = new nh.Session({ executor: new nh.AgentExecutor({ model: new ScriptedModel([() => ({ toolCalls: [toolCall('nh_output', { result: { kind: 'pass' } })] })]) }) });
    const { agent } = session.materialized(session.submit('async function agent() {}'), { agent: async () => nh.step({ program: 'execute\nGo.' }) });
    await agent!();
    expect(nh.displayLedger({}, { ledger: session.ledger })).toBe(session.ledger.size);
    const kinds = (shown.at(-1)![NighthawkMime.ledger] as LedgerPayload).entries.map((e) => e.kind);
    expect(kinds[0]).toBe('run.entry');
    expect(kinds.at(-1)).toBe('run.end');
  });
});
