/**
 * A microtask queued while an unmarked caller runs a model function (noteUnmarkedModelCode: a getter the host or an
 * operator inspector reads) runs after that job, when the note has cleared. Bound to the step's interior like a
 * timer, it runs under its mark, so the run-time tier still refuses what it builds from text.
 */
import { describe, expect, it } from 'vitest';
import { currentInterior, noteUnmarkedModelCode, probedMark, type InteriorMark } from '../../kernel/src/core/index.js';
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

