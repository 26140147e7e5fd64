/**
 * A kernel whose cells convert from the store builds the compiler's program (about a second of one synchronous
 * step) only once it has had nothing to do for WARM_UP_IDLE_MS: a notebook run again sends its cells one after
 * another with short gaps between them, and a build in one of those gaps would hold the next cell for that second.
 */
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { WARM_UP_IDLE_MS, warmUpWhenIdle, type TslabCompiler } from '../../kernel/src/server/kernel/tslab-compiler.js';

/** A compiler whose warm-up only records when it ran. */
function fakeCompiler(): { compiler: TslabCompiler; builtAt: number[] } {
  const builtAt: number[] = [];
  const compiler = {
    get built() {
      return builtAt.length > 0;
    },
    warmUp() {
      builtAt.push(Date.now());
      return false;
    },
  } as unknown as TslabCompiler;
  return { compiler, builtAt };
}

describe('building the program once the kernel is idle', () => {
  beforeEach(() => vi.useFakeTimers({ now: 0 }));
  afterEach(() => vi.useRealTimers());

  test('short gaps between cells do not count: the build waits for a whole idle period after the last cell', () => {
    const { compiler, builtAt } = fakeCompiler();
    // 100 cells of 40 ms, each 5 ms after the one before ended; then nothing.
    const period = 45;
    const cell = 40;
    const runEnd = 99 * period + cell;
    const idleFor = (): number => {
      const now = Date.now();
      if (now < runEnd && now % period < cell) return 0;
      return now - (now >= runEnd ? runEnd : Math.floor(now / period) * period + cell);
    };
    warmUpWhenIdle(compiler, idleFor);
    vi.advanceTimersByTime(runEnd);
    expect(builtAt).toEqual([]);
    vi.advanceTimersByTime(3 * WARM_UP_IDLE_MS);
    expect(builtAt).toHaveLength(1);
    expect(builtAt[0]!).toBeGreaterThanOrEqual(runEnd + WARM_UP_IDLE_MS);
    expect(builtAt[0]!).toBeLessThan(runEnd + 2 * WARM_UP_IDLE_MS);
  });

  test('a kernel idle from the start builds after one idle period, once', () => {
    const { compiler, builtAt } = fakeCompiler();
    warmUpWhenIdle(compiler, () => Date.now());
    vi.advanceTimersByTime(WARM_UP_IDLE_MS - 1);
    expect(builtAt).toEqual([]);
    vi.advanceTimersByTime(10 * WARM_UP_IDLE_MS);
    expect(builtAt).toEqual([WARM_UP_IDLE_MS]);
  });
});
