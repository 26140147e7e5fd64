/**
 * What cells use to talk to the notebook beyond return values: showing a run's ledger and asking
 * the operator to approve an operation. The kernel host installs the channel of the running kernel.
 */
import {
  abortStep,
  accept,
  rejectOperation,
  type OperationDecision,
  type OperationRequest,
} from '../../core/index.js';
import { projectLedger, type Ledger, type LedgerEvent, type LedgerFilter, type SqliteLedgerStore } from '../../harness/index.js';
import { NighthawkMime } from '../../../../shared/mime.js';
import { ApprovalAnswerSchema } from '../../../../shared/ui-types.js';
import type { KernelChannel } from '../kernel/index.js';
import { ledgerEntry, operationLine, runLabels } from './run-view.js';
import { activeSession } from '../../session/index.js';

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

/**
 * Shows the ledger (optionally one run, or a filter of it) as the notebook's ledger view. With
 * `{ persisted: true }` it reads the SQLite copy, which includes runs from before a kernel restart.
 */
export function displayLedger(selection: string | LedgerFilter = {}, options: { ledger?: Ledger; persisted?: boolean } = {}): number {
  const filter: LedgerFilter = typeof selection === 'string' ? { runId: selection } : selection;
  let events: readonly LedgerEvent[];
  let labels: Map<string, string>;
  if (options.persisted) {
    if (!persisted) throw new Error('displayLedger: this kernel has no data directory, so nothing is persisted.');
    const all = persisted.load(filter.runId) as unknown as LedgerEvent[];
    events = projectLedger(all, filter);
    labels = runLabels(all);
  } else {
    const source = options.ledger ?? activeSession()?.ledger;
    if (!source) throw new Error('displayLedger: no ledger; pass one or run inside the notebook kernel.');
    events = source.select(filter);
    // A filtered selection may leave out the run.entry events that name the runs.
    labels = runLabels(source.select({ ...(filter.runId ? { runId: filter.runId } : {}), kind: 'run.entry' }));
  }
  const entries = events.map((e) => ledgerEntry(e, labels.get(e.runId)));
  const text = entries.slice(-50).map((e) => `#${e.sequence} ${e.kind}${e.status ? ` [${e.status}]` : ''} ${e.summary}`).join('\n');
  requireChannel('displayLedger').display({
    [NighthawkMime.ledger]: { ...(filter.runId ? { runId: filter.runId } : {}), entries },
    'text/plain': `ledger: ${entries.length} entries${entries.length > 50 ? ' (last 50 shown)' : ''}\n${text}`,
  });
  return entries.length;
}

export interface OperatorApprovalOptions {
  /** How long to wait for the person at the notebook; no answer ends the step (fail closed). */
  readonly timeoutMs?: number;
  /** Ask only for operations this returns true for; others are accepted. */
  readonly when?: (request: OperationRequest) => boolean;
}

let approvals = 0;

/**
 * An inspectOperation hook that asks the person at the notebook to accept, reject (with reason and
 * guidance) or abort each proposed operation. Timeouts, interrupts and unreadable answers abort.
 */
export function operatorApproval(options: OperatorApprovalOptions = {}): (request: OperationRequest) => Promise<OperationDecision> {
  const timeoutMs = options.timeoutMs ?? 120_000;
  return async (request) => {
    if (options.when && !options.when(request)) return accept();
    const ch = requireChannel('operatorApproval');
    const operation = { operationId: request.operationId, kind: request.kind, status: 'pending' as const, ...(request.expression ? { expression: request.expression } : {}), ...(request.targetPath ? { targetPath: request.targetPath } : {}), ...(request.toolName ? { toolName: request.toolName } : {}) };
    const prompt = `Approve ${operationLine(operation)}? accept / reject <reason> / abort <reason>`;
    ch.display({ [NighthawkMime.approval]: { requestId: `approval-${++approvals}`, operation, prompt }, 'text/plain': prompt });
    let answer: string;
    try {
      answer = await ch.requestInput(prompt, { timeoutMs });
    } catch (error) {
      return abortStep(`operator approval not given: ${error instanceof Error ? error.message : String(error)}`);
    }
    return parseAnswer(answer);
  };
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
      return abortStep(a.reason || 'aborted by the operator');
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
