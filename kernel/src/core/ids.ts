/**
 * Identifiers for runs, scopes, steps and operations. They are ULID-shaped (26 Crockford base32
 * characters, millisecond time first) but monotonic within a process, so generating one costs a
 * counter increment rather than 80 fresh random bits: ids sit on the per-operation hot path.
 */
import { randomBytes } from 'node:crypto';

const ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
const floor = Math.floor;

/**
 * The wall clock, captured at load. Host records (ids, `at` times) are made while interior code runs, and
 * a `Date.now` it replaced would forge their times, or throw from inside the host once its dispatch ended.
 */
export const wallClockMs: () => number = Date.now;
/** `performance.now`, captured for the same reason. */
export const monotonicMs: () => number = performance.now.bind(performance);

function encodeTime(ms: number): string {
  let out = '';
  for (let i = 0; i < 10; i++) {
    out = ALPHABET[ms % 32] + out;
    ms = floor(ms / 32);
  }
  return out;
}

// 16 random characters fixed per process plus a counter folded into the last 8 keeps ids unique
// across processes (random prefix) and ordered within one (time, then counter).
const processPrefix = Array.from(randomBytes(8), (b) => ALPHABET[b % 32]).join('');
let lastTime = -1;
let lastTimeText = '';
let counter = 0;

/** A new sortable id, optionally with a readable prefix (`run_`, `op_` …). */
export function newId(prefix = ''): string {
  const now = wallClockMs();
  if (now !== lastTime) {
    lastTime = now;
    lastTimeText = encodeTime(now);
  }
  counter = (counter + 1) % 0x10000000000;
  let tail = '';
  let c = counter;
  for (let i = 0; i < 8; i++) {
    tail = ALPHABET[c % 32] + tail;
    c = floor(c / 32);
  }
  return prefix + lastTimeText + processPrefix + tail;
}
