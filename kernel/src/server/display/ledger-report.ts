/**
 * A self-contained HTML report of a run or a whole ledger for auditors: each run's call tree, the
 * refusals (capability refusals, rejected operations, trace anomalies) and the ledger table. It is
 * built from the same view model as the notebook's run and ledger views (`run-view.ts`), with the
 * same structure and class names as the web renderers, as static markup: no script, and a
 * Content-Security-Policy that forbids any, since the ledger holds model output.
 */
import type { LedgerEvent, LedgerReader } from '../../harness/index.js';
import type { ExecutionPayload, LedgerEntryPayload, OperationPayload, RunPayload } from '../../../../shared/ui-types.js';
import { RunView, ledgerEntry } from './run-view.js';

export interface LedgerReportOptions {
  /** Report one run; without it every run in the ledger. */
  readonly runId?: string;
  readonly title?: string;
}

interface Refusal {
  readonly sequence: number;
  readonly runId: string;
  readonly what: string;
  readonly reason: string;
  readonly detail: string;
}

const escape = (text: string): string => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
const statusClass = (status: string): string => status.replace(/[^a-z-]/g, '');
const badge = (status: string): string => `<span class="nh-badge nh-status-${statusClass(status)}">${escape(status)}</span>`;
const text = (value: unknown): string => (typeof value === 'string' ? value : value === undefined ? '' : JSON.stringify(value) ?? String(value));

/** The report for a ledger (or one of its runs) as one HTML document. */
export function exportLedgerHtml(ledger: LedgerReader, options: LedgerReportOptions = {}): string {
  const events = ledger.select(options.runId === undefined ? {} : { runId: options.runId });
  return ledgerReportHtml(events, { ...options, ledgerId: ledger.ledgerId });
}

/** The report for already selected events (for example an imported export's). */
export function ledgerReportHtml(events: readonly LedgerEvent[], options: LedgerReportOptions & { ledgerId?: string } = {}): string {
  const runs = new Map<string, RunView>();
  const refusals: Refusal[] = [];
  for (const event of events) {
    let view = runs.get(event.runId);
    if (!view) runs.set(event.runId, (view = new RunView(event.runId, event.runId)));
    view.apply(event);
    const refusal = refusalOf(event);
    if (refusal) refusals.push(refusal);
  }
  const title = options.title ?? (options.runId ? `Run ${options.runId}` : `Ledger ${options.ledgerId ?? ''}`.trim());
  const entries = events.map((e) => ledgerEntry(e));
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">
<meta name="generator" content="nighthawk-ts ledger report">
<title>${escape(title)}</title>
<style>${CSS}</style></head>
<body>
<header class="nh-report-head"><h1>${escape(title)}</h1>
<p>${events.length} ledger events, ${runs.size} run${runs.size === 1 ? '' : 's'}${options.ledgerId ? `, ledger <code>${escape(options.ledgerId)}</code>` : ''}, exported ${escape(new Date().toISOString())}</p></header>
<main>
<section aria-label="call trees"><h2>Call tree</h2>
${[...runs.values()].map((run) => renderRun(run.payload())).join('\n')}
</section>
<section aria-label="refusals"><h2>Refusals</h2>
${renderRefusals(refusals)}
</section>
<section aria-label="ledger"><h2>Ledger</h2>
${renderLedger(entries)}
</section>
</main></body></html>
`;
}

function refusalOf(event: LedgerEvent): Refusal | undefined {
  const base = { sequence: event.sequence, runId: event.runId };
  switch (event.kind) {
    case 'capability.refused':
      return { ...base, what: `capability ${event.data.capability}`, reason: event.data.reason, detail: text(event.data.detail) };
    case 'operation':
      if (event.status !== 'rejected') return undefined;
      return { ...base, what: `operation ${event.subjectId}`, reason: 'rejected', detail: text(event.data.rejection?.reason) };
    case 'trace.anomaly':
      return { ...base, what: 'trace anomaly', reason: event.data.anomalyKind, detail: text({ ...event.data, anomalyKind: undefined }) };
    case 'allocation.exhausted':
      return { ...base, what: `allocation of ${event.subjectId}`, reason: 'allocation exhausted', detail: event.data.resource };
    default:
      return undefined;
  }
}

function operationLabel(op: OperationPayload): string {
  if (op.kind === 'tool' && op.toolName) return op.toolName;
  if (op.kind === 'assign' && op.targetPath) return `${op.targetPath} = ${op.expression ?? '…'}`;
  if (op.expression) return op.kind === 'output' ? `return ${op.expression}` : op.expression;
  if (op.toolName && !op.toolName.startsWith('nh_')) return op.toolName;
  return op.kind;
}

function renderOperation(op: OperationPayload): string {
  let out = `<li class="nh-op nh-op-${statusClass(op.status)}" data-operation-id="${escape(op.operationId)}" data-status="${escape(op.status)}">`;
  out += `<div class="nh-op-head">${badge(op.status)}<span class="nh-op-kind">${escape(op.kind)}</span><code class="nh-op-label">${escape(operationLabel(op))}</code><span class="nh-id">${escape(op.operationId)}</span></div>`;
  if (op.rejection) {
    out += `<div class="nh-rejection"><div class="nh-reason"><strong>Rejected: </strong>${escape(op.rejection.reason)}</div>`;
    if (op.rejection.guidance) out += `<div class="nh-guidance"><strong>Guidance: </strong>${escape(op.rejection.guidance)}</div>`;
    out += '</div>';
  }
  if (op.abortReason) out += `<div class="nh-abort"><strong>Aborted: </strong>${escape(op.abortReason)}</div>`;
  if (op.failure) out += `<div class="nh-failure"><strong>${escape(op.failure.errorClass)}: </strong>${escape(op.failure.message)}</div>`;
  if (op.blockedByOperationId) out += `<div class="nh-blocked">Skipped because <a href="#op-${escape(op.blockedByOperationId)}">${escape(op.blockedByOperationId)}</a> did not complete</div>`;
  return `${out}</li>`;
}

function renderExecution(exec: ExecutionPayload, children: Map<string, ExecutionPayload[]>): string {
  let out = `<li class="nh-execution nh-exec-${statusClass(exec.status)}" data-execution-id="${escape(exec.executionId)}">`;
  out += `<div class="nh-exec-head">${badge(exec.status)}<span class="nh-exec-title">Natural step ${escape(exec.stepId)}</span><span class="nh-id">${escape(exec.executionId)}</span></div>`;
  if (exec.operations.length) out += `<ol class="nh-ops" aria-label="operations">${exec.operations.map(renderOperation).join('')}</ol>`;
  if (exec.commit) {
    const keys = [...new Set([...Object.keys(exec.commit.proposed), ...Object.keys(exec.commit.committed)])];
    out += `<div class="nh-commit"><div class="nh-commit-head"><strong>Step commit</strong>${exec.commit.rewritten ? badge('rewritten') : ''}</div><table class="nh-commit-table"><thead><tr><th scope="col">binding</th><th scope="col">proposed</th><th scope="col">committed</th></tr></thead><tbody>`;
    for (const key of keys) out += `<tr><th scope="row">${escape(key)}</th><td>${escape(text(exec.commit.proposed[key]))}</td><td>${escape(text(exec.commit.committed[key]))}</td></tr>`;
    out += '</tbody></table></div>';
  }
  if (exec.error) out += `<div class="nh-failure"><strong>${escape(exec.error.name)}: </strong>${escape(exec.error.message)}</div>`;
  const nested = children.get(exec.executionId) ?? [];
  if (nested.length) out += `<ol class="nh-executions">${nested.map((c) => renderExecution(c, children)).join('')}</ol>`;
  return `${out}</li>`;
}

function renderRun(run: RunPayload): string {
  const ids = new Set(run.executions.map((e) => e.executionId));
  const children = new Map<string, ExecutionPayload[]>();
  const roots: ExecutionPayload[] = [];
  for (const exec of run.executions) {
    if (exec.parentExecutionId && ids.has(exec.parentExecutionId)) children.set(exec.parentExecutionId, [...(children.get(exec.parentExecutionId) ?? []), exec]);
    else roots.push(exec);
  }
  const counts = new Map<string, number>();
  for (const op of run.executions.flatMap((e) => e.operations)) counts.set(op.status, (counts.get(op.status) ?? 0) + 1);
  const summary = [...counts].map(([s, n]) => `${n} ${s}`).join(', ');
  return `<section class="nh-run nh-run-${statusClass(run.status)}" data-run-id="${escape(run.runId)}" aria-label="run ${escape(run.functionName)}">
<header class="nh-run-head">${badge(run.status)}<strong class="nh-run-fn">${escape(run.functionName)}</strong><span class="nh-id">${escape(run.runId)}</span><span class="nh-run-summary">${escape(summary)}</span></header>
<ol class="nh-executions">${roots.map((r) => renderExecution(r, children)).join('')}</ol></section>`;
}

function renderRefusals(refusals: readonly Refusal[]): string {
  if (!refusals.length) return '<p class="nh-empty">No refusals.</p>';
  const rows = refusals.map((r) => `<tr data-sequence="${r.sequence}"><td>${r.sequence}</td><td>${escape(r.runId)}</td><td>${escape(r.what)}</td><td>${badge(r.reason)}</td><td>${escape(r.detail)}</td></tr>`);
  return `<table class="nh-refusals"><thead><tr><th>#</th><th>run</th><th>what</th><th>reason</th><th>detail</th></tr></thead><tbody>${rows.join('')}</tbody></table>`;
}

function renderLedger(entries: readonly LedgerEntryPayload[]): string {
  const rows = entries.map(
    (e) =>
      `<tr class="nh-ledger-row" data-sequence="${e.sequence}"><td>${e.sequence}</td><td>${escape(e.runId)}</td><td>${escape(e.kind)}</td><td>${e.status ? badge(e.status) : ''}</td><td>${escape(e.summary)}</td><td>${escape(typeof e.at === 'number' ? new Date(e.at).toISOString() : e.at)}</td></tr>`,
  );
  return `<table class="nh-ledger" aria-label="ledger entries"><thead><tr><th>#</th><th>run</th><th>kind</th><th>status</th><th>summary</th><th>at</th></tr></thead><tbody>${rows.join('')}</tbody></table>`;
}

// The notebook's colours and shapes for the same classes (web/src/styles.css), light theme only.
const CSS = `
:root{--bg:#fff;--bg-soft:#f6f7f9;--fg:#1c2128;--fg-soft:#5b6472;--border:#d8dde3;--ok:#1a7f37;--ok-bg:#dcf5e3;--bad:#c62828;--bad-bg:#fde4e4;--warn:#9a6700;--warn-bg:#fff4cc;--muted-bg:#eceff3;--info:#0b6bcb;--info-bg:#e1efff;--mono:ui-monospace,Menlo,Consolas,monospace}
body{margin:0;padding:16px 24px;background:var(--bg);color:var(--fg);font:14px/1.45 system-ui,sans-serif}
h1{font-size:20px;margin:0 0 4px}h2{font-size:16px;margin:24px 0 8px}
code,.nh-id{font-family:var(--mono);font-size:12px}.nh-id{color:var(--fg-soft)}
.nh-run{border:1px solid var(--border);border-radius:8px;padding:8px 12px;margin:8px 0}
.nh-run-head,.nh-exec-head,.nh-op-head,.nh-commit-head{display:flex;align-items:center;gap:8px;flex-wrap:wrap}
.nh-executions,.nh-ops{list-style:none;margin:4px 0 4px 12px;padding:0}
.nh-execution{margin:6px 0;padding-left:8px;border-left:2px solid var(--border)}
.nh-op{margin:4px 0;padding:4px 8px;border-radius:5px;background:var(--bg-soft)}
.nh-op-kind{font-size:11px;text-transform:uppercase;letter-spacing:.05em;color:var(--fg-soft)}
.nh-op-rejected{border-left:3px solid var(--bad)}.nh-op-failed,.nh-op-aborted{border-left:3px solid var(--warn)}
.nh-rejection,.nh-abort,.nh-failure,.nh-blocked{margin-top:4px;font-size:13px}
.nh-badge{display:inline-block;padding:0 7px;border-radius:9px;font-size:11px;font-weight:700;line-height:18px;background:var(--muted-bg);color:var(--fg-soft)}
.nh-status-completed{background:var(--ok-bg);color:var(--ok)}
.nh-status-failed,.nh-status-rejected,.nh-status-raised,.nh-status-not-granted{background:var(--bad-bg);color:var(--bad)}
.nh-status-aborted,.nh-status-rewritten{background:var(--warn-bg);color:var(--warn)}
.nh-status-running,.nh-status-pending{background:var(--info-bg);color:var(--info)}
table{border-collapse:collapse;width:100%;font-size:13px}th,td{border-bottom:1px solid var(--border);padding:3px 6px;text-align:left;vertical-align:top}
.nh-ledger td:nth-child(5),.nh-refusals td:nth-child(5){font-family:var(--mono);font-size:12px;word-break:break-word}
`;
