/**
 * What cells use to talk to the notebook beyond return values: showing a run's ledger and asking
 * the operator to approve an operation. The kernel host installs the channel of the running kernel.
 */
import { randomUUID } from 'node:crypto';
import {
  abortStep,
  accept,
  modelCodeRunning,
  rejectOperation,
  reportRefusal,
  type OperationDecision,
  type OperationKind,
  type OperationRequest,
} from '../../core/index.js';
import {
  Ledger,
  LedgerView,
  refuseDuringUntrustedRead,
  type LedgerReader,
  type LedgerEvent,
  type LedgerFilter,
  type SqliteLedgerStore,
} from '../../harness/index.js';
import { NighthawkMime } from '../../../../shared/mime.js';
import { ApprovalAnswerSchema } from '../../../../shared/ui-types.js';
import type { KernelChannel } from '../kernel/index.js';
import { oneLine } from './plain-text.js';
import { ledgerEntry, operationLine, runLabels } from './run-view.js';
import { activeSession, OperatorControlError } from '../../session/index.js';

let channel: KernelChannel | undefined;
let persisted: SqliteLedgerStore | undefined;

/** Host-only: the SQLite copy of the Session ledger under the data directory (survives restarts). */
export function setPersistedLedger(store: SqliteLedgerStore | undefined): void {
  persisted = store;
}

/** Host-only: the channel of the kernel this process serves. */
export function setNotebookChannel(next: KernelChannel | undefined): void {
  channel = next;
}

function requireChannel(what: string): KernelChannel {
  if (!channel) throw new Error(`${what} needs a running notebook kernel.`);
  return channel;
}

const VIEW_LATEST = 10_000;

// Captured when the kernel loads. Each getter reads a private field, so calling it is a brand check no lookalike
// passes (an object made on the prototype, a proxy, a plain `{ size, select }`), and it runs none of the object's code.
const { apply, getOwnPropertyDescriptor } = Reflect;
const ledgerSize = getOwnPropertyDescriptor(Ledger.prototype, 'size')!.get!;
const ledgerSelect = Ledger.prototype.select;
const viewSize = getOwnPropertyDescriptor(LedgerView.prototype, 'size')!.get!;

interface GenuineReader {
  readonly size: number;
  select(filter: LedgerFilter): readonly LedgerEvent[];
}

/** A real Ledger (read through its prototype's methods) or LedgerView (frozen, so its own `select` is its own). */
function genuineReader(source: unknown): GenuineReader | undefined {
  try {
    const size = apply(ledgerSize, source, []) as number;
    return { size, select: (filter) => apply(ledgerSelect, source, [filter]) as readonly LedgerEvent[] };
  } catch {
    // not a Ledger
  }
  try {
    const size = apply(viewSize, source, []) as number;
    const select = getOwnPropertyDescriptor(source as object, 'select')?.value as LedgerView['select'];
    return { size, select: (filter) => select(filter) };
  } catch {
    return undefined;
  }
}

/**
 * Shows the ledger (optionally one run, or a filter of it) as the notebook's ledger view. With
 * `{ persisted: true }` it reads the SQLite copy, which includes runs from before a kernel restart.
 * `options.ledger` must be a Ledger or a LedgerView (`Session.ledger`, `Runner.ledger`).
 */
export function displayLedger(selection: string | LedgerFilter = {}, options: { ledger?: LedgerReader; persisted?: boolean } = {}): number {
  refuseModelCode('displayLedger', 'ledger_display_from_model_code', { control: 'displayLedger' });
  const filter: LedgerFilter = typeof selection === 'string' ? { runId: selection } : selection;
  let events: readonly LedgerEvent[];
  let labels: Map<string, string>;
  let latestOnly = false;
  let total = 0;
  if (options.persisted) {
    if (!persisted) throw new Error('displayLedger: this kernel has no data directory, so nothing is persisted.');
    events = persisted.select(filter);
    labels = runLabels(persisted.select({ ...(filter.runId ? { runId: filter.runId } : {}), kind: 'run.entry' }));
  } else {
    const given = options.ledger ?? activeSession()?.ledger;
    if (!given) throw new Error('displayLedger: no ledger; pass one or run inside the notebook kernel.');
    // The ledger view is the host's record: a lookalike reader (one a model built and the operator's code was handed)
    // would show events no run appended.
    const source = genuineReader(given);
    if (!source) {
      reportRefusal('display_forged_ledger', { control: 'displayLedger' });
      throw new TypeError('displayLedger: options.ledger must be a Ledger or a LedgerView (Session.ledger, Runner.ledger).');
    }
    // A Session ledger can hold millions of events (it lives in SQLite): unfiltered, show the latest.
    latestOnly = Object.keys(filter).length === 0 && source.size > VIEW_LATEST;
    events = source.select(latestOnly ? { afterSequence: source.size - VIEW_LATEST } : filter);
    if (latestOnly) total = source.size;
    // A filtered selection may leave out the run.entry events that name the runs.
    labels = runLabels(source.select({ ...(filter.runId ? { runId: filter.runId } : {}), kind: 'run.entry' }));
  }
  const entries = events.map((e) => ledgerEntry(e, labels.get(e.runId)));
  // One line per entry: a summary holds what a model controlled (plain-text.ts).
  const text = entries.slice(-50).map((e) => oneLine(`#${e.sequence} ${e.kind}${e.status ? ` [${e.status}]` : ''} ${e.summary}`)).join('\n');
  const scope = latestOnly ? ` (the latest of ${total}; pass a filter for older ones)` : '';
  requireChannel('displayLedger').display({
    [NighthawkMime.ledger]: { ...(filter.runId ? { runId: filter.runId } : {}), entries },
    'text/plain': `ledger: ${entries.length} entries${scope}${entries.length > 50 ? ' (last 50 shown)' : ''}\n${text}`,
  });
  return entries.length;
}

export interface OperatorApprovalOptions {
  /** How long to wait for the person at the notebook; no answer ends the step (fail closed). */
  readonly timeoutMs?: number;
  /**
   * Which operation kinds ask (default: evaluate, assign and tool calls). The output a step proposes
   * is validated against its declared type anyway, so by default it does not ask; add 'output' to
   * approve outputs too.
   */
  readonly kinds?: readonly OperationKind[];
  /** Ask only for operations this returns true for (after `kinds`); others are accepted. */
  readonly when?: (request: OperationRequest) => boolean;
}

/** The kinds operatorApproval asks about unless told otherwise. */
export const DEFAULT_APPROVAL_KINDS: readonly OperationKind[] = ['evaluate', 'assign', 'tool'];

/** What the operator is asked, in words: what the model wants to do, not console syntax. One line (plain-text.ts). */
export function approvalQuestion(request: Pick<OperationRequest, 'kind' | 'expression' | 'targetPath' | 'toolName' | 'outcomeKind'>): string {
  return oneLine(questionOf(request));
}

function questionOf(request: Pick<OperationRequest, 'kind' | 'expression' | 'targetPath' | 'toolName' | 'outcomeKind'>): string {
  switch (request.kind) {
    case 'evaluate':
      return `The model wants to evaluate ${request.expression ?? 'an expression'}. Allow it?`;
    case 'assign':
      return `The model wants to set ${request.targetPath ?? 'a binding'} to ${request.expression ?? 'a value'}. Allow it?`;
    case 'tool':
      return `The model wants to call the tool ${request.toolName ?? 'unnamed'}. Allow it?`;
    case 'output':
      return `The model wants to finish the step with ${[request.outcomeKind ?? 'an outcome', request.expression].filter(Boolean).join(' ')}. Allow it?`;
  }
}

let approvals = 0;

/**
 * The notebook bridge's displays are the operator's: model code (an expression, generated code it called) calling one
 * would put a ledger view or an approval card in front of the operator that no run stands behind, and take the
 * kernel's input request while a real one may be waiting. So would a bound one a model planted in a value the kernel
 * displays (a getter, or a timer it started), where no interior mark is set: while the host reads an untrusted value
 * (readingUntrustedValue) they refuse too (`operator_control_while_displaying`). Recorded and refused.
 */
function refuseModelCode(control: string, anomalyKind: string, detail: Record<string, unknown> = {}): void {
  refuseDuringUntrustedRead(control, (c) => new OperatorControlError({ control: c }));
  if (!modelCodeRunning()) return;
  reportRefusal(anomalyKind, detail);
  throw new OperatorControlError({ control });
}

/**
 * An inspectOperation hook that asks the person at the notebook to accept, reject (with reason and
 * guidance) or abort each proposed operation. Timeouts, interrupts and unreadable answers abort.
 */
export function operatorApproval(options: OperatorApprovalOptions = {}): (request: OperationRequest) => Promise<OperationDecision> {
  const timeoutMs = options.timeoutMs ?? 120_000;
  const kinds = new Set(options.kinds ?? DEFAULT_APPROVAL_KINDS);
  return async (request) => {
    // The operator's inspector asks, and the host calls it outside any mark. Model code calling an approval function
    // (one it made, or the operator's) would put a card in front of the operator that no operation of the run stands
    // behind, and take the kernel's input request while a real one may be waiting.
    refuseModelCode('operatorApproval', 'operator_approval_from_model_code', { kind: String(request?.kind) });
    if (!kinds.has(request.kind)) return accept();
    if (options.when && !options.when(request)) return accept();
    const ch = requireChannel('operatorApproval');
    const operation = { operationId: request.operationId, kind: request.kind, status: 'pending' as const, ...(request.expression ? { expression: request.expression } : {}), ...(request.targetPath ? { targetPath: request.targetPath } : {}), ...(request.toolName ? { toolName: request.toolName } : {}), ...(request.outcomeKind ? { outcome: request.outcomeKind } : {}) };
    // The card has buttons, so it asks in words; a console has only the typed answer, so it keeps the syntax.
    const question = approvalQuestion(request);
    const consolePrompt = `Approve ${operationLine(operation)}? accept / reject <reason> / abort <reason>`;
    // Not guessable: a card drawn by cell code cannot name (or, by display id, replace) the one the kernel asks with.
    const requestId = `approval-${++approvals}-${randomUUID().slice(0, 8)}`;
    const displayId = `nh-${requestId}`;
    const card = { requestId, operation, prompt: question };
    ch.display({ [NighthawkMime.approval]: card, 'text/plain': question }, { displayId, update: false });
    let decision: OperationDecision;
    try {
      decision = parseAnswer(await ch.requestInput(consolePrompt, { timeoutMs, approvalId: requestId }));
    } catch (error) {
      decision = abortStep(`operator approval not given: ${error instanceof Error ? error.message : String(error)}`);
    }
    // The answered card collapses to one line in every frontend, and stays so in the saved notebook.
    const answered = answeredBy(decision);
    try {
      ch.display({ [NighthawkMime.approval]: { ...card, answered }, 'text/plain': oneLine(`${question} ${answered.summary}`) }, { displayId, update: true });
    } catch {
      // The cell ended (interrupt): the decision stands; only the card stays as it was.
    }
    return decision;
  };
}

/** The record of an answer a card shows once answered. */
function answeredBy(decision: OperationDecision): { kind: string; by: 'operator'; at: number; summary: string; reason?: string; guidance?: string } {
  const at = Date.now();
  const time = new Date(at).toTimeString().slice(0, 8);
  const d = decision as { kind: string; reason?: string; guidance?: string };
  const verb = d.kind === 'accept' ? 'accepted' : d.kind === 'reject-operation' ? 'rejected' : 'aborted';
  const detail = d.reason ? `: ${d.reason}` : '';
  return { kind: d.kind, by: 'operator', at, summary: `${verb} by operator, ${time}${detail}`, ...(d.reason ? { reason: d.reason } : {}), ...(d.guidance ? { guidance: d.guidance } : {}) };
}

/** Reads a JSON answer from the web notebook or a typed one from a console. Unreadable → abort. */
export function parseAnswer(answer: string): OperationDecision {
  const text = answer.trim();
  try {
    const parsed = ApprovalAnswerSchema.safeParse(JSON.parse(text));
    if (parsed.success) {
      const a = parsed.data;
      if (a.kind === 'accept') return accept();
      if (a.kind === 'reject-operation') return a.reason.trim() ? rejectOperation(a.reason, a.guidance || undefined) : abortStep('rejection without a reason');
      return abortStep(a.reason?.trim() ? a.reason : 'aborted by the operator');
    }
  } catch {
    // not JSON: a console answer
  }
  const [word, ...rest] = text.split(/\s+/);
  const reason = rest.join(' ');
  if (/^(a|accept|y|yes)$/i.test(word ?? '')) return accept();
  if (/^(r|reject|n|no)$/i.test(word ?? '')) {
    const [why, guidance] = reason.split('|').map((s) => s.trim());
    return rejectOperation(why || 'rejected by the operator', guidance || undefined);
  }
  return abortStep(word && /^abort$/i.test(word) ? reason || 'aborted by the operator' : `unreadable approval answer: ${JSON.stringify(text.slice(0, 80))}`);
}
