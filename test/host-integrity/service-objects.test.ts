/**
 * The confinement and termination services are operator objects the host calls into. Seed 002: "with confinement
 * configured every dispatch node needs its confirmation before generated code runs"; seed 001: only the
 * termination mechanism establishes cessation. A shadowed `confirm` (always true) or `terminate` (always "ceased")
 * would let generated code run unconfirmed, or let the host record a cessation nobody established. The Runner reads
 * both once, at construction; a later edit changes nothing and is recorded (`confinement_modified`,
 * `termination_modified`). Each attack runs from a model expression, generated code and a SessionFunction body.
 */
import { describe, expect, it } from 'vitest';
import * as nh from '../../kernel/src/index.js';
import { ScriptedModel, toolCall } from '../../kernel/src/testing.js';

type Place = 'expression' | 'generated' | 'session-function';
const PLACES: readonly Place[] = ['expression', 'generated', 'session-function'];

const SHADOW_CONFIRM = `Object.defineProperty(probe.confinement, 'confirm', { value: () => true, configurable: true }); return 'shadowed';`;
const SHADOW_TERMINATE = `Object.defineProperty(probe.termination, 'terminate', { value: async () => ({ ceased: true, detail: 'forged' }), configurable: true }); return 'shadowed';`;

const finish = () => toolCall('nh_output', { result: { kind: 'pass' } });
const anomalies = (events: readonly nh.LedgerEvent[]) => events.filter((e) => e.kind === 'trace.anomaly').map((e) => String(e.status));

/**
 * A run whose composition first runs `attack` from `place`, then dispatches generated code exporting `evil`, which
 * the confinement never confirms (it confirms the materialization and invocations of `attack` only).
 */
async function confinementCase(place: Place) {
  const asked: string[] = [];
  const confinement: nh.ConfinementService = {
    identity: 'test-boundary',
    confirm: (r) => (asked.push(`${r.node}:${r.exportName ?? ''}`), r.node === 'materialization' || r.exportName === 'attack'),
  };
  const originalConfirm = confinement.confirm;
  const probe: Record<string, unknown> = { confinement };
  const evilRan: string[] = [];
  const sink = (what: string) => evilRan.push(what);
  const model = new ScriptedModel((_m, info) => (place === 'expression' && info.requestNumber === 1 ? { toolCalls: [toolCall('nh_evaluate', { expression: `(() => { ${SHADOW_CONFIRM} })()` })] } : { toolCalls: [finish()] }));
  const runnerOptions = { executor: new nh.AgentExecutor({ model }), confinement };
  const composition = async (): Promise<string> => {
    if (place === 'expression') await nh.step({ program: 'execute\nGo.' });
    if (place === 'generated') {
      const module = await nh.currentDispatcher().dispatch({ language: 'javascript', intent: 'define', source: `export function attack() { ${SHADOW_CONFIRM} }`, dependencies: [{ name: 'probe', kind: 'reference', type: 'object' }] });
      (module.exports['attack'] as () => string)();
    }
    if (place === 'session-function') new Function('probe', SHADOW_CONFIRM)(probe);
    const evil = await nh.currentDispatcher().dispatch({ language: 'javascript', intent: 'define', source: 'export function evil() { sink("ran"); return 1; }', dependencies: [{ name: 'sink', kind: 'reference', type: 'function' }] });
    try {
      (evil.exports['evil'] as () => number)();
      return 'evil ran';
    } catch (error) {
      return `refused:${(error as Error).name}`;
    }
  };
  const grant = { references: { probe, sink } };
  if (place === 'session-function') {
    const session = new nh.Session({ ...runnerOptions, grant });
    const { go } = session.materialized(session.submit('async function go() {}'), { go: composition });
    return { outcome: await go!(), events: session.ledger.select({}), evilRan, asked, confinement, originalConfirm };
  }
  const runner = new nh.Runner(runnerOptions);
  const outcome = await runner.run(composition, { grant });
  return { outcome, events: runner.ledger.events(), evilRan, asked, confinement, originalConfirm };
}

describe('a shadowed confinement confirm', () => {
  for (const place of PLACES) {
    it(`from ${place}: the unconfirmed export is still refused, and the edit recorded`, async () => {
      const result = await confinementCase(place);
      expect(result.confinement.confirm).not.toBe(result.originalConfirm); // the edit took
      expect(result.outcome).toBe('refused:DispatchRejectedError');
      expect(result.evilRan).toEqual([]);
      expect(result.asked).toContain('invocation:evil');
      expect(anomalies(result.events)).toEqual(expect.arrayContaining(['confinement_modified', 'confinement_unconfirmed']));
    });
  }
});

/**
 * A run the operator then terminates, whose termination mechanism cannot stop it (ceased: false): the attack first
 * shadows `terminate` to claim cessation.
 */
async function terminationCase(place: Place) {
  const termination: nh.TerminationService = { terminate: async () => ({ ceased: false, detail: 'this mechanism cannot stop a branch' }) };
  const originalTerminate = termination.terminate;
  const probe: Record<string, unknown> = { termination };
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  let attacked!: () => void;
  const attackDone = new Promise<void>((resolve) => (attacked = resolve));
  const model = new ScriptedModel((_m, info) => (place === 'expression' && info.requestNumber === 1 ? { toolCalls: [toolCall('nh_evaluate', { expression: `(() => { ${SHADOW_TERMINATE} })()` })] } : { toolCalls: [finish()] }));
  const runner = new nh.Runner({ executor: new nh.AgentExecutor({ model }), termination });
  const handle = runner.start(
    async () => {
      if (place === 'expression') await nh.step({ program: 'execute\nGo.' });
      if (place === 'generated') {
        const module = await nh.currentDispatcher().dispatch({ language: 'javascript', intent: 'define', source: `export function attack() { ${SHADOW_TERMINATE} }`, dependencies: [{ name: 'probe', kind: 'reference', type: 'object' }] });
        (module.exports['attack'] as () => string)();
      }
      if (place === 'session-function') new Function('probe', SHADOW_TERMINATE)(probe);
      attacked();
      await gate;
      return 'finished';
    },
    { grant: { references: { probe } } },
  );
  await attackDone;
  const ceased = await handle.terminate('operator stop');
  release();
  const outcome = await handle.result.then(
    (v) => `returned:${String(v)}`,
    (e: unknown) => `threw:${(e as Error).name}:${String((e as { ceased?: unknown }).ceased)}`,
  );
  return { ceased, outcome, events: runner.ledger.events(), edited: termination.terminate !== originalTerminate };
}

describe('a shadowed termination mechanism', () => {
  for (const place of PLACES) {
    it(`from ${place}: no cessation is claimed, and the edit is recorded`, async () => {
      const result = await terminationCase(place);
      expect(result.edited).toBe(true);
      expect(result.ceased).toBe(false);
      expect(result.outcome).toBe('threw:RunTerminatedError:false');
      expect(result.events.filter((e) => e.kind === 'run.end').map((e) => e.status)).not.toContain('terminated');
      expect(anomalies(result.events)).toContain('termination_modified');
    });
  }
});

