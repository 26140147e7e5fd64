import { describe, expect, it } from 'vitest';
import { AgentExecutor, Session, step, type LedgerEvent } from '../../kernel/src/index.js';
import { ScriptedModel, toolCall } from '../../kernel/src/testing.js';

// Issue 14's run-end rules attacked from a SessionFunction body (a run's interior, running operator-approved
// code with the run's async context): work it leaves behind must never be recorded for the run after its
// run.end, and each refused attempt is evidence (a late anomaly on the Session).
const finish = () => toolCall('nh_output', { result: { kind: 'pass' } });

function newSession(): Session {
  return new Session({ executor: new AgentExecutor({ model: new ScriptedModel(() => ({ toolCalls: [finish()] })) }) });
}

function cell(session: Session, source: string, declared: Record<string, unknown>) {
  return session.materialized(session.submit(source), declared);
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Events of `runId` recorded after its run.end (must always be empty). */
function afterRunEnd(events: readonly LedgerEvent[], runId: string): LedgerEvent[] {
  const own = events.filter((e) => e.runId === runId);
  const end = own.findIndex((e) => e.kind === 'run.end');
  expect(end).toBeGreaterThanOrEqual(0);
  return own.slice(end + 1);
}

describe('run end attacked from a SessionFunction body', () => {
  it('a Natural step started from a timer the body left behind is refused after run.end, recorded as a late anomaly', async () => {
    const session = newSession();
    let late: Promise<unknown> | undefined;
    let runId = '';
    const { leaves } = cell(session, 'async function leaves() {}', {
      leaves: async () => {
        runId = session.ledger.select({ kind: 'run.entry' }).at(-1)!.runId;
        setTimeout(() => {
          late = step({ program: 'execute\nDo it later.' }).then(
            () => 'ran',
            (error: unknown) => error,
          );
        }, 20);
        return 'returned';
      },
    });
    await expect(leaves!()).resolves.toBe('returned');
    await sleep(80);
    expect(late).toBeDefined();
    const outcome = await late!;
    expect(outcome).not.toBe('ran');
    expect(afterRunEnd(session.ledger.select({}), runId)).toEqual([]);
    expect(session.anomalies.filter((a) => a.runId === runId).map((a) => a.anomalyKind)).toContain('step_after_run_end');
  });

  it('a SessionFunction called from a late callback of an ended run does not join that run', async () => {
    const session = newSession();
    let runId = '';
    let helperRan: unknown;
    const { helper } = cell(session, 'async function helper() {}', {
      helper: async () => step({ program: 'execute\nHelp.' }).then(() => 'stepped', (e: unknown) => e),
    });
    const { leaves } = cell(session, 'async function leaves() {}', {
      leaves: async () => {
        runId = session.ledger.select({ kind: 'run.entry' }).at(-1)!.runId;
        setTimeout(() => void helper!().then((v) => (helperRan = v), (e: unknown) => (helperRan = e)), 20);
        return 'returned';
      },
    });
    await leaves!();
    await sleep(100);
    expect(helperRan).toBeDefined();
    expect(helperRan).not.toBe('stepped');
    expect(afterRunEnd(session.ledger.select({}), runId)).toEqual([]);
    // Refused at the SessionFunction itself: called in the ended run's frame, it neither joins nor starts a run.
    expect(session.anomalies.filter((a) => a.runId === runId).map((a) => [a.anomalyKind, a.detail['control']])).toContainEqual(['operator_control_in_run', 'SessionFunction helper after its run ended']);
    expect(session.ledger.select({ kind: 'run.entry' })).toHaveLength(1);
  });

  it('a body that returns while its Natural step is still in flight gets no run.end before that step has ceased', async () => {
    const slow = new ScriptedModel(async () => {
      await sleep(50);
      return { toolCalls: [finish()] };
    });
    const session = new Session({ executor: new AgentExecutor({ model: slow }) });
    let runId = '';
    const { abandons } = cell(session, 'async function abandons() {}', {
      abandons: async () => {
        runId = session.ledger.select({ kind: 'run.entry' }).at(-1)!.runId;
        void step({ program: 'execute\nSlow.' }).catch(() => undefined);
        return 'returned early';
      },
    });
    await abandons!().catch(() => undefined);
    await sleep(200);
    const events = session.ledger.select({}).filter((e) => e.runId === runId);
    // The branch left active at the run-end seam is evidence, and the in-flight execution is ended (failed, aborted).
    expect(events.filter((e) => e.kind === 'trace.anomaly').map((e) => e.status)).toContain('branches_active_at_run_end');
    expect(events.find((e) => e.kind === 'execution.end')?.status).toBe('failed');
    const end = events.findIndex((e) => e.kind === 'run.end');
    if (end >= 0) {
      // If the run ended at all, the execution ended first and nothing followed.
      expect(events.slice(0, end).some((e) => e.kind === 'execution.end')).toBe(true);
      expect(events.slice(end + 1)).toEqual([]);
    }
    // Either way the run did not complete with the returned value.
    expect(events.find((e) => e.kind === 'run.end')?.status).not.toBe('completed');
  });
});
