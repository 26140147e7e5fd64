/**
 * Ledger export for auditors: a run (or a whole Session ledger) as JSON Lines, and an import that
 * reads such an export back into a read-only Ledger for `select` and replay, so evidence can leave
 * the live process. The first line describes the export; every other line is one event with its
 * data in the persistence form (`toJSONSafe`). An import is validated against the shared event
 * schemas and refused as a whole, with the line that is wrong, when anything does not fit.
 */
import { NighthawkError, wallClockMs } from '../core/index.js';
import { LedgerEventSchema } from '../../../shared/ledger-events.js';
import { Ledger, type LedgerEvent, type LedgerEventKind } from './ledger.js';
import type { LedgerReader } from './ledger-view.js';
import { fromJSONSafe, toJSONSafe } from './snapshot-json.js';

export const LEDGER_EXPORT_FORMAT = 'nighthawk-ledger';
export const LEDGER_EXPORT_VERSION = 1;

/** The first line of an export. */
export interface LedgerExportHeader {
  readonly format: typeof LEDGER_EXPORT_FORMAT;
  readonly version: typeof LEDGER_EXPORT_VERSION;
  readonly ledgerId: string;
  /** Present when the export holds one run. */
  readonly runId?: string;
  readonly events: number;
  readonly exportedAt: number;
}

export interface LedgerExportSelection {
  /** Export one run; without it the whole ledger. */
  readonly runId?: string;
}

const TERMINAL: ReadonlySet<LedgerEventKind> = new Set(['run.end', 'execution.end', 'dispatch.end']);
const HEADER_FIELDS = ['sequence', 'eventId', 'runId', 'kind', 'subjectId', 'parentId', 'status', 'at'] as const;

/** The export's lines, header first; use it to stream a large ledger to a file. */
export function* ledgerJsonlLines(ledger: LedgerReader, selection: LedgerExportSelection = {}): Generator<string> {
  const events = ledger.select(selection.runId === undefined ? {} : { runId: selection.runId });
  const header: LedgerExportHeader = {
    format: LEDGER_EXPORT_FORMAT,
    version: LEDGER_EXPORT_VERSION,
    ledgerId: ledger.ledgerId,
    ...(selection.runId !== undefined ? { runId: selection.runId } : {}),
    events: events.length,
    exportedAt: wallClockMs(),
  };
  yield JSON.stringify(header);
  for (const event of events) yield eventLine(event);
}

/** A run or a whole ledger as JSON Lines (ends with a newline). */
export function exportLedgerJsonl(ledger: LedgerReader, selection: LedgerExportSelection = {}): string {
  let out = '';
  for (const line of ledgerJsonlLines(ledger, selection)) out += `${line}\n`;
  return out;
}

function eventLine(event: LedgerEvent): string {
  const line: Record<string, unknown> = {};
  for (const field of HEADER_FIELDS) if (event[field] !== undefined) line[field] = event[field];
  line.data = toJSONSafe(event.data);
  return JSON.stringify(line);
}

/** An export that cannot be imported: nothing of it is used. */
export class LedgerImportError extends NighthawkError {
  /** 1-based line of the export, when one line is at fault. */
  readonly line: number | undefined;
  constructor(options: { detail: string; line?: number }) {
    super(
      'ledger-import',
      `Ledger import refused${options.line !== undefined ? ` at line ${options.line}` : ''}: ${options.detail}. ` +
        'Import only an unmodified export written by exportLedgerJsonl.',
    );
    this.line = options.line;
  }
}

/**
 * Reads a JSON Lines export back into a read-only Ledger (its `ledgerId` is the exported one).
 * Every event must match its kind's schema, sequences must increase, event ids must be unique and
 * each subject may have one terminal event per kind, as in the ledger that was exported.
 */
export function importLedgerJsonl(text: string): Ledger {
  if (typeof text !== 'string') throw new LedgerImportError({ detail: 'the export must be the JSON Lines text' });
  const lines = text.split('\n');
  if (lines.at(-1) === '') lines.pop();
  if (lines.length === 0) throw new LedgerImportError({ detail: 'the text is empty' });
  const header = parseLine(lines[0]!, 1) as Partial<LedgerExportHeader> | null;
  if (!header || header.format !== LEDGER_EXPORT_FORMAT || header.version !== LEDGER_EXPORT_VERSION || typeof header.ledgerId !== 'string') {
    throw new LedgerImportError({ line: 1, detail: `the first line is not a ${LEDGER_EXPORT_FORMAT} v${LEDGER_EXPORT_VERSION} header` });
  }
  if (header.events !== lines.length - 1) throw new LedgerImportError({ detail: `the header announces ${String(header.events)} events but ${lines.length - 1} follow (truncated or extended)` });
  const events: LedgerEvent[] = [];
  const ids = new Set<string>();
  const terminals = new Set<string>();
  let last = 0;
  for (let i = 1; i < lines.length; i++) {
    const raw = parseLine(lines[i]!, i + 1);
    if (!raw || typeof raw !== 'object' || Array.isArray(raw)) throw new LedgerImportError({ line: i + 1, detail: 'an event line must be a JSON object' });
    const record = raw as Record<string, unknown>;
    const event = Object.freeze({
      sequence: record.sequence,
      eventId: record.eventId,
      runId: record.runId,
      kind: record.kind,
      subjectId: record.subjectId,
      parentId: record.parentId,
      status: record.status,
      at: record.at,
      data: fromJSONSafe(record.data),
    }) as unknown as LedgerEvent;
    const parsed = LedgerEventSchema.safeParse(event);
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      throw new LedgerImportError({ line: i + 1, detail: `${String(record.kind)} event: ${issue.path.join('.') || '(event)'}: ${issue.message}` });
    }
    if (header.runId !== undefined && event.runId !== header.runId) throw new LedgerImportError({ line: i + 1, detail: `an event of run ${event.runId} in an export of run ${header.runId}` });
    if (!(event.sequence > last)) throw new LedgerImportError({ line: i + 1, detail: `sequence ${event.sequence} does not follow ${last}` });
    if (ids.has(event.eventId)) throw new LedgerImportError({ line: i + 1, detail: `event id ${event.eventId} appears twice` });
    if (TERMINAL.has(event.kind)) {
      const key = `${event.kind}:${event.subjectId}`;
      if (terminals.has(key)) throw new LedgerImportError({ line: i + 1, detail: `a second terminal ${event.kind} event for ${event.subjectId}` });
      terminals.add(key);
    }
    last = event.sequence;
    ids.add(event.eventId);
    events.push(event);
  }
  return Ledger.readOnly(events, { ledgerId: header.ledgerId });
}

function parseLine(line: string, number: number): unknown {
  try {
    return JSON.parse(line) as unknown;
  } catch (error) {
    throw new LedgerImportError({ line: number, detail: `not JSON (${error instanceof Error ? error.message : String(error)})` });
  }
}
