/**
 * Work that runs later without passing through a timer is bound to the interior that registered it, like a timer:
 * - a microtask queued while an unmarked caller runs a model function (noteUnmarkedModelCode: a getter the host or
 *   an operator inspector reads) runs after that job, when the note has cleared, still under the step's mark, so the
 *   run-time tier refuses what it builds from text;
 * - a writable stream's completion callback an expression registered is not called once its execution ended (round 3:
 *   `process.stdout.write('', cb)` with a built-in that changed a committed value after approval).
 */
import { describe, expect, it } from 'vitest';
import { PassThrough, Writable } from 'node:stream';
import { currentInterior, noteUnmarkedModelCode, probedMark, runInterior, type InteriorMark } from '../../kernel/src/core/index.js';
import { installEffectAudit } from '../../kernel/src/index.js';

installEffectAudit();

describe('work queued by model code an unmarked caller ran', () => {
  it.each([['queueMicrotask', (fn: () => void) => queueMicrotask(fn)]])('%s: runs under the step mark after the note cleared', async (_name, queue) => {
    const mark = probedMark({ kind: 'expression', executionId: 'exe_t', operationId: undefined }, () => undefined);
    const seen: Array<InteriorMark | undefined> = [];
    noteUnmarkedModelCode(mark);
    queue(() => seen.push(currentInterior()));
    await new Promise((r) => setTimeout(r, 5));
    expect(seen).toHaveLength(1);
    expect(seen[0]).toMatchObject({ kind: 'expression', executionId: 'exe_t' });
  });

  it('host work queued with no note stays unmarked', async () => {
    const seen: Array<InteriorMark | undefined> = [];
    queueMicrotask(() => seen.push(currentInterior()));
    await new Promise((r) => setTimeout(r, 5));
    expect(seen).toEqual([undefined]);
  });
});

describe('a writable stream completion callback an expression registered', () => {
  it.each([
    ['a Writable', () => new Writable({ write: (_c, _e, done) => done() })],
    ['a Duplex (a socket, a pipe, process.stdout)', () => new PassThrough()],
  ])('%s: is not called once the execution ended (dropped)', async (_label, make) => {
    let ended = false;
    const live = () => (ended ? ('execution-ended' as const) : undefined);
    const stream = make();
    let called = 0;
    runInterior({ kind: 'expression', executionId: 'exe_w', operationId: undefined }, () => {
      stream.write('x', () => called++);
      stream.end(() => called++);
    }, live);
    ended = true;
    await new Promise((r) => setTimeout(r, 20));
    expect(called).toBe(0);
  });
});
