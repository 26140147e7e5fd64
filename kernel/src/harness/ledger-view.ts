/**
 * Read-only views of a ledger. `Runner.ledger` and `Session.ledger` hand out a view (select,
 * project, subscribe); the append capability stays with the Ledger itself, which only the Runner
 * and its RunHosts hold. A view keeps the ledger in a private field and is frozen, so nothing that
 * reaches a view (an expression, generated code, a SessionFunction body) can reach `append`.
 */
import { refuseInteriorControl } from './host-context.js';
import { HostIntegrityError } from './integrity-errors.js';
import type { Ledger, LedgerEvent, LedgerEventKind, LedgerFilter, LedgerListener } from './ledger.js';

/** What readers of a ledger use: the view and the Ledger both provide it. */
export type LedgerReader = Pick<Ledger, 'ledgerId' | 'size' | 'events' | 'select' | 'subscribe' | 'hasTerminal'>;

export class LedgerView implements LedgerReader {
  readonly #ledger: Ledger;

  /** Typed like `Ledger.select`: a filter naming one kind returns that kind's events. */
  readonly select: Ledger['select'];

  constructor(ledger: Ledger) {
    this.#ledger = ledger;
    this.select = ((filter?: LedgerFilter) => ledger.select(filter)) as Ledger['select'];
    Object.freeze(this);
  }

  get ledgerId(): string {
    return this.#ledger.ledgerId;
  }

  /** The events still held in memory (the whole ledger without a store). */
  get window(): readonly LedgerEvent[] {
    return this.#ledger.window;
  }

  get size(): number {
    return this.#ledger.size;
  }

  events(): readonly LedgerEvent[] {
    return this.#ledger.events();
  }

  /** Listeners observe appended events; a throwing listener cannot undo or block one. Operator-only. */
  subscribe(listener: LedgerListener): () => void {
    // The Ledger refuses a run's code (and records it): operators observe, runs do not.
    return this.#ledger.subscribe(listener);
  }

  hasTerminal(kind: LedgerEventKind, subjectId: string): boolean {
    return this.#ledger.hasTerminal(kind, subjectId);
  }

  /** Always refused: a view cannot write. Reached from a run's interior, the attempt is recorded there. */
  append(..._args: unknown[]): never {
    refuseInteriorControl('ledger.append', 'ledger_append_refused');
    throw new HostIntegrityError({ attempt: 'ledger-append', detail: 'a ledger view is read-only; only the run host appends' });
  }
}
Object.freeze(LedgerView.prototype);

// An authority class: no method of it can be replaced (a leaked path to the prototype cannot patch `append`, say).
Object.freeze(LedgerView.prototype);
