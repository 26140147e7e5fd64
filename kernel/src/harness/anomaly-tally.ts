/**
 * Which of a run's anomalies are listed one by one. Model code can repeat a refused attempt in a loop and catch
 * each refusal; a record per attempt would grow the ledger (and a Session's store) by one per iteration. Per kind
 * and parent (an operation, a dispatch node) a tally lists the first ANOMALIES_LISTED_EACH, then only those whose
 * detail differs from every one listed before, up to ANOMALIES_LISTED_MAX: padding with one harmless refusal does
 * not hide a different attempt behind it. The rest are counted, and the run records one more anomaly saying how
 * many (`repeated`). What a refusal enforces never depends on whether its record was listed.
 */
import { wallClockMs } from '../core/index.js';
import { append, mapEntryList, mapGet, mapSet, objectFreeze, ownKeys, setAdd, setHas, setSizeOf, stringSlice, StringCtor } from './intrinsics.js';
import { dataValue } from './snapshot-reflect.js';

export const ANOMALIES_LISTED_EACH = 100;
export const ANOMALIES_LISTED_MAX = 1000;
/** How much of each detail value tells two attempts apart. */
const FINGERPRINT_CHARS = 200;

interface Tally {
  seen: number;
  listed: number;
  readonly details: Set<string>;
}

/**
 * The detail's own string-keyed primitive values, each cut to FINGERPRINT_CHARS (objects count by type only). Read
 * by descriptor, so a getter on a detail never runs here.
 */
function fingerprint(detail: Readonly<Record<string, unknown>>): string {
  const keys = ownKeys(detail);
  let out = '';
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i];
    if (typeof key !== 'string') continue;
    const value = dataValue(detail, key);
    const text = value === null || (typeof value !== 'object' && typeof value !== 'function' && typeof value !== 'symbol') ? StringCtor(value) : typeof value;
    out += `${key}\u0001${stringSlice(text, 0, FINGERPRINT_CHARS)}\u0002`;
  }
  return out;
}

/** The bounded records of anomalies kept outside a run's ledger: the Runner's late record, the Session's own, the process's outside Runners. */
export type AnomalyRecordName = 'runner' | 'session' | 'outside-runners';

/**
 * The entry a bounded record adds for the anomalies it only counted: `count` of them, in the record `record` names,
 * for run `runId` when it counts per run.
 */
export function droppedAnomalies(record: AnomalyRecordName, count: number, runId?: string): { readonly runId: string | undefined; readonly anomalyKind: 'anomalies_dropped'; readonly parentId: undefined; readonly detail: Readonly<Record<string, unknown>>; readonly at: number } {
  return objectFreeze({ runId, anomalyKind: 'anomalies_dropped', parentId: undefined, detail: objectFreeze({ count, record }), at: wallClockMs() });
}

export class AnomalyTally {
  readonly #tallies = new Map<string, Tally>();

  /** Notes one anomaly under `key` (its kind and parent); true when it is to be listed. */
  note(key: string, detail: Readonly<Record<string, unknown>>): boolean {
    let tally = mapGet(this.#tallies, key);
    if (tally === undefined) {
      tally = { seen: 0, listed: 0, details: new Set() };
      mapSet(this.#tallies, key, tally);
    }
    tally.seen++;
    if (tally.listed >= ANOMALIES_LISTED_MAX) return false;
    const print = fingerprint(detail);
    if (tally.listed >= ANOMALIES_LISTED_EACH && setHas(tally.details, print)) return false;
    if (setSizeOf(tally.details) < ANOMALIES_LISTED_MAX) setAdd(tally.details, print);
    tally.listed++;
    return true;
  }

  /** How many anomalies under `key` were counted and not listed, and how many were listed. */
  countOf(key: string): { unlisted: number; listed: number } {
    const tally = mapGet(this.#tallies, key);
    return tally === undefined ? { unlisted: 0, listed: 0 } : { unlisted: tally.seen - tally.listed, listed: tally.listed };
  }

  /** Every key with anomalies counted and not listed, with the counts. */
  unlisted(): { key: string; unlisted: number; listed: number }[] {
    const entries = mapEntryList(this.#tallies);
    const out: { key: string; unlisted: number; listed: number }[] = [];
    for (let i = 0; i < entries.length; i++) {
      const [key, tally] = entries[i]!;
      if (tally.seen > tally.listed) append(out, { key, unlisted: tally.seen - tally.listed, listed: tally.listed });
    }
    return out;
  }
}
// Its instances decide which refusals are listed: no method may be replaced, even by code that reaches the class.
Object.freeze(AnomalyTally.prototype);
