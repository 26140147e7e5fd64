/**
 * Builds the notebook's views of a run from ledger events: the call tree (run → Natural executions →
 * operations), ledger rows, and the text/plain fallbacks other frontends show. Pure functions of the
 * ledger, so a view rebuilt after a restart equals the live one.
 */
import type { LedgerEvent } from '../../harness/index.js';
import type {
  ExecutionPayload,
  LedgerEntryPayload,
  OperationPayload,
  RunPayload,
} from '../../../../shared/ui-types.js';
import { oneLine, printedLines } from './plain-text.js';

type Data = Record<string, unknown>;
const asData = (v: unknown): Data => (v && typeof v === 'object' ? (v as Data) : {});
const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);

/** Text a run printed, placed after the operation (or execution) that preceded it in time. */
export interface RunStreamChunk {
  name: 'stdout' | 'stderr';
  text: string;
  /** Within an execution: the operation it followed (absent: before the first one). */
  afterOperationId?: string;
  /** At run level: the execution it followed (absent: before the first one). */
  afterExecutionId?: string;
}

/** The most text one run view keeps of its printed output; the rest is cut with a note. */
export const RUN_STREAM_CHARS = 20_000;

type LiveExecution = ExecutionPayload & { operations: OperationPayload[]; streams?: RunStreamChunk[] };

/** Incrementally folds ledger events of one run into its call-tree payload. */
export class RunView {
  readonly runId: string;
  functionName: string;
  status: RunPayload['status'] = 'running';
  readonly #executions = new Map<string, LiveExecution>();
  readonly #streams: RunStreamChunk[] = [];
  #streamChars = 0;
  /** Executions started and not yet ended, innermost last. */
  readonly #open: string[] = [];
  #lastExecutionId: string | undefined;
  readonly anomalies: { anomalyKind: string; message: string; executionId?: string }[] = [];
  /** The anomalies as the cell shows them: one line per kind and parent (`kind\0parentId`). */
  readonly #anomalyLines = new Map<string, AnomalyLine>();

  constructor(runId: string, functionName: string) {
    this.runId = runId;
    this.functionName = functionName;
  }

  /** Applies one event; returns true when the view changed. */
  apply(event: LedgerEvent): boolean {
    const data = asData(event.data);
    switch (event.kind) {
      case 'run.entry':
        this.functionName = str(data.label) ?? this.functionName;
        return true;
      case 'execution.start':
        this.#executions.set(event.subjectId, {
          executionId: event.subjectId,
          stepId: str(data.stepId) ?? 'step',
          ...(event.parentId && this.#executions.has(event.parentId) ? { parentExecutionId: event.parentId } : {}),
          status: 'running',
          operations: [],
        });
        this.#open.push(event.subjectId);
        this.#lastExecutionId = event.subjectId;
        return true;
      case 'operation': {
        const exe = this.#executions.get(event.parentId ?? '');
        if (!exe) return false;
        exe.operations.push(operationPayload(data));
        return true;
      }
      case 'execution.end': {
        const exe = this.#executions.get(event.subjectId);
        if (!exe) return false;
        const at = this.#open.lastIndexOf(event.subjectId);
        if (at >= 0) this.#open.splice(at, 1);
        // A stopped step's terminal event says failed (seed 000); its failure says it was aborted.
        exe.status = event.status === 'failed' && data.failure === 'aborted' ? 'aborted' : executionStatus(event.status);
        const proposed = asData(data.proposed);
        const committed = asData(data.committed);
        if (Object.keys(proposed).length || Object.keys(committed).length) exe.commit = { proposed, committed, rewritten: data.rewritten === true };
        const error = asData(data.error);
        if (exe.status !== 'completed' && (str(error.message) || str(error.name))) exe.error = { name: str(error.name) ?? 'Error', message: str(error.message) ?? '' };
        return true;
      }
      case 'trace.anomaly': {
        const anomaly = { anomalyKind: event.status ?? 'anomaly', message: anomalyMessage(data), ...(event.parentId ? { executionId: event.parentId } : {}) };
        this.anomalies.push(anomaly);
        this.#addToLine(anomaly, event.sequence, typeof data.repeated === 'number' ? data.repeated : undefined);
        return true;
      }
      case 'run.end':
        this.status = event.status === 'completed' ? 'completed' : 'failed';
        return true;
      default:
        return false;
    }
  }

  /**
   * Records text the run printed while it was in progress, in time order: inside the innermost running
   * execution after its latest operation, else between executions. Returns false once the run ended.
   */
  stream(name: RunStreamChunk['name'], text: string): boolean {
    if (this.status !== 'running' || !text) return false;
    if (this.#streamChars >= RUN_STREAM_CHARS) return true;
    let kept = text;
    if (this.#streamChars + text.length > RUN_STREAM_CHARS) kept = `${text.slice(0, RUN_STREAM_CHARS - this.#streamChars)}\n… (further output of this run not kept)\n`;
    this.#streamChars += kept.length;
    const exe = this.#executions.get(this.#open.at(-1) ?? '');
    const chunk: RunStreamChunk = exe
      ? { name, text: kept, ...(exe.operations.length ? { afterOperationId: exe.operations.at(-1)!.operationId } : {}) }
      : { name, text: kept, ...(this.#lastExecutionId ? { afterExecutionId: this.#lastExecutionId } : {}) };
    const list = exe ? (exe.streams ??= []) : this.#streams;
    const last = list.at(-1);
    // Consecutive writes at the same place merge, as a terminal shows them.
    if (last && last.name === chunk.name && last.afterOperationId === chunk.afterOperationId && last.afterExecutionId === chunk.afterExecutionId) last.text += kept;
    else list.push(chunk);
    return true;
  }

  payload(): RunPayload {
    return {
      runId: this.runId, functionName: this.functionName, status: this.status,
      executions: [...this.#executions.values()].map((e) => ({ ...e, operations: [...e.operations], ...(e.streams ? { streams: e.streams.map((c) => ({ ...c })) } : {}) })),
      ...(this.#streams.length ? { streams: this.#streams.map((c) => ({ ...c })) } : {}),
    };
  }

  /** The step and error of a failed execution of this run, if it failed with one. */
  failureOf(executionId: string): { stepId: string; errorName: string } | undefined {
    const exe = this.#executions.get(executionId);
    return exe?.error ? { stepId: exe.stepId, errorName: exe.error.name } : undefined;
  }

  /**
   * A readable fallback for frontends without the project renderers. Each line is the host's: what a model controls
   * (an expression, a name, a message, what the run printed) is escaped onto it (plain-text.ts).
   */
  text(): string {
    const lines = [oneLine(`run ${this.functionName} (${this.runId}): ${this.status}`)];
    const printed = (chunks: RunStreamChunk[] | undefined, pick: (c: RunStreamChunk) => boolean, indent: string): void => {
      for (const c of chunks ?? []) if (pick(c)) for (const l of printedLines(c.text)) lines.push(`${indent}${c.name === 'stderr' ? '! ' : '| '}${l}`);
    };
    printed(this.#streams, (c) => !c.afterExecutionId, '  ');
    for (const e of this.#executions.values()) {
      lines.push(`  ${oneLine(`execution ${e.stepId}: ${e.status}${e.error ? ` — ${e.error.name}: ${e.error.message}` : ''}`)}`);
      printed(e.streams, (c) => !c.afterOperationId, '    ');
      for (const o of e.operations) {
        lines.push(`    ${operationLine(o)}`);
        printed(e.streams, (c) => c.afterOperationId === o.operationId, '    ');
      }
      if (e.commit) lines.push(`    ${oneLine(`commit ${JSON.stringify(e.commit.committed)}${e.commit.rewritten ? ' (rewritten)' : ''}`)}`);
      printed(this.#streams, (c) => c.afterExecutionId === e.executionId, '  ');
    }
    for (const a of this.#anomalyLines.values()) lines.push(`  ${anomalyLineText(a)}`);
    return lines.join('\n');
  }

  /** The line of anomalies of `anomalyKind` under `parentId`, once one arrived. */
  anomalyLine(anomalyKind: string, parentId: string | undefined): AnomalyLine | undefined {
    return this.#anomalyLines.get(`${anomalyKind}\0${parentId ?? ''}`);
  }

  /**
   * One more anomaly on its line: the count grows by one, or by a run's `repeated` (those it counted and did not
   * list, anomaly-tally.ts), and the line shows the last attempt listed (a count record describes none).
   */
  #addToLine(anomaly: { anomalyKind: string; message: string; executionId?: string }, sequence: number, repeated: number | undefined): void {
    const key = `${anomaly.anomalyKind}\0${anomaly.executionId ?? ''}`;
    const line = this.#anomalyLines.get(key);
    if (line) {
      line.count += repeated ?? 1;
      if (repeated === undefined) line.message = anomaly.message;
    } else this.#anomalyLines.set(key, { ...anomaly, count: repeated ?? 1, firstSequence: sequence });
  }
}

export function operationPayload(record: Data): OperationPayload {
  const request = asData(record.request);
  const rejection = asData(record.rejection);
  const failure = asData(record.failure);
  return {
    operationId: str(request.operationId) ?? 'op',
    kind: str(request.kind) ?? 'operation',
    status: (str(record.status) ?? 'completed') as OperationPayload['status'],
    ...(str(request.expression) !== undefined ? { expression: str(request.expression)! } : {}),
    ...(str(request.targetPath) !== undefined ? { targetPath: str(request.targetPath)! } : {}),
    ...(str(request.toolName) !== undefined ? { toolName: str(request.toolName)! } : {}),
    ...(str(rejection.reason) !== undefined ? { rejection: { reason: str(rejection.reason)!, ...(str(rejection.guidance) !== undefined ? { guidance: str(rejection.guidance)! } : {}) } } : {}),
    ...(str(record.abortReason) !== undefined ? { abortReason: str(record.abortReason)! } : {}),
    ...(str(failure.errorClass) !== undefined ? { failure: { errorClass: str(failure.errorClass)!, message: str(failure.message) ?? '' } } : {}),
    ...(str(record.blockedByOperationId) !== undefined ? { blockedByOperationId: str(record.blockedByOperationId)! } : {}),
    ...(str(request.outcomeKind) !== undefined ? { outcome: str(request.outcomeKind)! } : {}),
    ...(str(record.valuePreview) !== undefined ? { valuePreview: str(record.valuePreview)! } : {}),
  };
}

/** What an operation did, for people: the outcome an output proposed, not the word "output" twice. */
function operationWhat(o: OperationPayload): string {
  const outcome = str((o as Record<string, unknown>).outcome);
  if (o.kind === 'output') return [outcome ?? 'output', o.expression].filter(Boolean).join(' ');
  return o.expression ?? o.targetPath ?? o.toolName ?? o.kind;
}

/** One operation on one line, for text/plain, the console's approval prompt and the ledger's summaries. */
export function operationLine(o: OperationPayload): string {
  let line = `${o.kind} ${operationWhat(o)}: ${o.status}`;
  const preview = str((o as Record<string, unknown>).valuePreview);
  if (preview !== undefined) line += ` = ${preview}`;
  if (o.rejection) line += ` — ${o.rejection.reason}${o.rejection.guidance ? ` (guidance: ${o.rejection.guidance})` : ''}`;
  if (o.failure) line += ` — ${o.failure.errorClass}: ${o.failure.message}`;
  if (o.abortReason) line += ` — ${o.abortReason}`;
  if (o.blockedByOperationId) line += ` (blocked by ${o.blockedByOperationId})`;
  return oneLine(line);
}

function executionStatus(status: string | undefined): ExecutionPayload['status'] {
  return status === 'completed' || status === 'raised' || status === 'aborted' ? status : 'failed';
}

/** One line of a run's anomalies: a kind under a parent, how many, and the last attempt listed. */
export interface AnomalyLine {
  readonly anomalyKind: string;
  readonly executionId?: string;
  message: string;
  count: number;
  /** The sequence of its first anomaly (the cell's display of the line is named by it). */
  readonly firstSequence: number;
}

/** `trace anomaly kind (×N): message`, the count only past one. */
export function anomalyLineText(line: AnomalyLine): string {
  return oneLine(`trace anomaly ${line.anomalyKind}${line.count > 1 ? ` (×${line.count})` : ''}: ${line.message}`);
}

function anomalyMessage(data: Data): string {
  const { anomalyKind: _k, ...rest } = data;
  // The run's count of the same anomalies past those it listed (RunHost.recordRepeatedAnomalies).
  if (typeof rest['repeated'] === 'number') return `${rest['repeated']} more like those listed (${String(rest['listed'])})`;
  const text = JSON.stringify(rest);
  return text.length > 300 ? text.slice(0, 299) + '…' : text;
}

/**
 * One ledger row for the ledger view. `subjectId` lets the view find the matching node of a run view;
 * `data` is the event's snapshot, shown when the row is expanded; `runLabel` names the run's function.
 */
export function ledgerEntry(event: LedgerEvent, runLabel?: string): LedgerEntryPayload {
  const data = asData(event.data);
  let summary: string;
  switch (event.kind) {
    case 'operation':
      summary = operationLine(operationPayload(data));
      break;
    case 'execution.start':
      summary = `start ${str(data.stepId) ?? ''}`;
      break;
    case 'run.entry':
      summary = `run ${str(data.label) ?? ''} entered (policy: ${JSON.stringify(data.effectivePolicy ?? [])})`;
      break;
    case 'trace.anomaly':
      summary = `${event.status}: ${anomalyMessage(data)}`;
      break;
    default:
      summary = `${event.kind} ${event.subjectId}${event.status ? `: ${event.status}` : ''}`;
  }
  return {
    sequence: event.sequence, runId: event.runId, kind: event.kind, ...(event.status ? { status: event.status } : {}), summary,
    ...(event.parentId ? { parentId: event.parentId } : {}), at: event.at,
    subjectId: event.subjectId, ...(runLabel ? { runLabel } : {}), data: event.data,
  };
}

/** The label each run entered with (its `run.entry` event), for the ledger's short run ids. */
export function runLabels(events: readonly LedgerEvent[]): Map<string, string> {
  const labels = new Map<string, string>();
  for (const e of events) {
    if (e.kind !== 'run.entry') continue;
    const label = str(asData(e.data).label);
    if (label) labels.set(e.runId, label);
  }
  return labels;
}
