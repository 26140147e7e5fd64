/**
 * The loop's append-only event log and its observers. Observers are isolated: an event subscriber or the
 * `onEvent` sink that throws is recorded in `subscriberFailures` and the loop goes on. Those failures are
 * deliberately kept out of the event log, so the log (and therefore replay) never depends on what an
 * observer did (seed 004: "events only record"; a subscriber can never affect the loop).
 */
import { describeError } from '../../core/index.js';
import type { LoopEvent, LoopEventKind, LoopEventOf, LoopEventPayloads } from './events.js';
import { deepFreeze } from './json.js';

/** Observes one event; the event and its payload are frozen. */
export type EventSubscriber<E extends LoopEvent = LoopEvent> = (event: E) => void;

export interface SubscriberFailure {
  readonly seq: number;
  readonly eventKind: LoopEventKind;
  /** `'sink'` for the `onEvent` option, else `'subscriber'`. */
  readonly observer: 'sink' | 'subscriber';
  readonly error: string;
}

type Entry = { readonly filter: LoopEventKind | '*'; readonly fn: EventSubscriber };

export class EventLog {
  readonly #events: LoopEvent[];
  readonly #subscribers: Entry[] = [];
  readonly #failures: SubscriberFailure[] = [];
  readonly #sink: EventSubscriber | undefined;

  constructor(options: { sink?: EventSubscriber; prior?: readonly LoopEvent[] }) {
    this.#sink = options.sink;
    this.#events = (options.prior ?? []).map((event) => deepFreeze(structuredClone(event)));
  }

  get events(): readonly LoopEvent[] {
    return Object.freeze([...this.#events]);
  }

  get lastSeq(): number {
    return this.#events.length;
  }

  get subscriberFailures(): readonly SubscriberFailure[] {
    return Object.freeze([...this.#failures]);
  }

  subscribe<K extends LoopEventKind>(kind: K, fn: EventSubscriber<LoopEventOf<K>>): () => void;
  subscribe(kind: '*', fn: EventSubscriber): () => void;
  subscribe(kind: LoopEventKind | '*', fn: EventSubscriber<never>): () => void {
    const entry: Entry = { filter: kind, fn: fn as EventSubscriber };
    this.#subscribers.push(entry);
    return () => {
      const at = this.#subscribers.indexOf(entry);
      if (at >= 0) this.#subscribers.splice(at, 1);
    };
  }

  /** Appends the next event (sequence numbers have no gaps) and then notifies the sink and subscribers. */
  append<K extends LoopEventKind>(kind: K, payload: LoopEventPayloads[K]): LoopEventOf<K> {
    const event = deepFreeze({ seq: this.#events.length + 1, kind, payload }) as unknown as LoopEventOf<K>;
    this.#events.push(event);
    if (this.#sink) this.#deliver(this.#sink, event, 'sink');
    for (const entry of [...this.#subscribers]) {
      if (entry.filter === '*' || entry.filter === kind) this.#deliver(entry.fn, event, 'subscriber');
    }
    return event;
  }

  #deliver(fn: EventSubscriber, event: LoopEvent, observer: SubscriberFailure['observer']): void {
    try {
      const result: unknown = fn(event);
      if (typeof result === 'object' && result !== null && typeof (result as { then?: unknown }).then === 'function') {
        // An async observer's rejection must not become an unhandled rejection; it is recorded instead.
        Promise.resolve(result).catch((error: unknown) => this.#failures.push({ seq: event.seq, eventKind: event.kind, observer, error: describeError(error) }));
      }
    } catch (error) {
      this.#failures.push({ seq: event.seq, eventKind: event.kind, observer, error: describeError(error) });
    }
  }
}
