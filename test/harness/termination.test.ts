import { describe, expect, it } from 'vitest';
import { RunTerminatedError, step, type TerminationService } from '../../kernel/src/index.js';
import { finish, scriptedRunner, terminalCounts } from './support.js';

function blockingRunner(service?: TerminationService) {
  let release!: () => void;
  const gate = new Promise<void>((r) => (release = r));
  let entered!: () => void;
  const inside = new Promise<void>((r) => (entered = r));
  const { runner, model } = scriptedRunner(async () => {
    entered();
    await gate;
    return { toolCalls: [finish()] };
  }, service ? { termination: service } : {});
  return { runner, model, release, inside };
}

describe('termination', () => {
  it('with the default mechanism terminate reports no cessation, records no run end, and refuses later operations', async () => {
    const { runner, model, release, inside } = blockingRunner();
    const handle = runner.start(async () => {
      await step({ program: 'execute\nFirst.' }).catch(() => undefined);
      await step({ program: 'execute\nSecond.' }).catch(() => undefined);
    });
    await inside;
    expect(await handle.terminate()).toBe(false);
    expect(handle.finalize()).toBe(false);
    release();
    await expect(handle.result).rejects.toBeInstanceOf(RunTerminatedError);
    expect(model.requestCount).toBe(1);
    expect(runner.ledger.select({ kind: 'run.end' })).toHaveLength(0);
    expect(handle.finalize()).toBe(true);
    expect(handle.finalize()).toBe(true);
    expect(runner.ledger.select({ kind: 'run.end' }).map((e) => e.status)).toEqual(['terminated']);
  });

  it('with a real mechanism each affected node gets exactly one terminal event and the run end is recorded at once', async () => {
    const ceasing: TerminationService = { terminate: async () => ({ ceased: true }) };
    const { runner, release, inside } = blockingRunner(ceasing);
    const handle = runner.start(async () => step({ program: 'execute\nStuck.' }));
    await inside;
    expect(await handle.terminate('operator stop')).toBe(true);
    await expect(handle.result).rejects.toMatchObject({ ceased: true });
    const events = runner.ledger.events();
    const ends = events.filter((e) => e.kind === 'execution.end');
    expect(ends.map((e) => e.status)).toEqual(['terminated']);
    expect(events[events.length - 1]!.kind).toBe('run.end');
    release();
    await new Promise((r) => setTimeout(r, 10));
    expect([...terminalCounts(runner.ledger.events()).values()].every((c) => c === 1)).toBe(true);
  });

  it('cooperative cancellation records the terminal decision before the caller sees the cancellation', async () => {
    const controller = new AbortController();
    const { runner, release, inside } = blockingRunner();
    const handle = runner.start(async () => step({ program: 'execute\nWait.' }), { signal: controller.signal });
    await inside;
    controller.abort(new Error('caller cancelled'));
    release();
    await expect(handle.result).rejects.toBeDefined();
    expect(runner.ledger.select({ kind: 'execution.end' })).toHaveLength(1);
    expect(runner.ledger.select({ kind: 'run.end' }).map((e) => e.status)).toEqual(['failed']);
  });

  it('a body that settles while the mechanism is still stopping it: the pending run call reports what the mechanism established, as terminate() does', async () => {
    for (const ceased of [true, false]) {
      let report!: (r: { ceased: boolean }) => void;
      const slow: TerminationService = { terminate: () => new Promise((r) => (report = r)) };
      const { runner, release, inside } = blockingRunner(slow);
      const handle = runner.start(async () => {
        await step({ program: 'execute\nStuck.' }).catch(() => undefined);
        return 'body value';
      });
      await inside;
      const terminating = handle.terminate('operator stop');
      release(); // the body unwinds on its own while the mechanism works
      await new Promise((r) => setTimeout(r, 20));
      report({ ceased });
      const error = await handle.result.then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(RunTerminatedError);
      expect(await terminating).toBe(ceased);
      expect((error as RunTerminatedError).ceased).toBe(ceased);
      expect(runner.ledger.select({ kind: 'run.end' })).toHaveLength(ceased ? 1 : 0);
      if (!ceased) expect(handle.finalize()).toBe(true);
      expect(runner.ledger.select({ kind: 'run.end' }).map((e) => e.status)).toEqual(['terminated']);
    }
  });
});
