/**
 * Renderers for a run's call tree: run → Natural executions (nested by parentExecutionId) → operations.
 * Each rendering is rebuilt from the latest payload, so an update_display_data under the same display_id
 * grows the tree in place.
 */
import type { ExecutionPayload, OperationPayload, RunPayload, StepCommitPayload } from '../../../shared/ui-types.js';
import { h } from '../dom.js';

export function statusBadge(status: string): HTMLElement {
  return h('span', { class: `nh-badge nh-status-${status.replace(/[^a-z-]/g, '')}`, text: status });
}

const extra = (value: object, name: string): string | undefined => {
  const v = (value as Record<string, unknown>)[name];
  return typeof v === 'string' ? v : undefined;
};

/** Text printed during a run, placed where it happened (kernel: RunStreamChunk). */
interface StreamChunk {
  name: string;
  text: string;
  afterOperationId?: string;
  afterExecutionId?: string;
}

function streamsOf(value: object): StreamChunk[] {
  const raw = (value as Record<string, unknown>).streams;
  if (!Array.isArray(raw)) return [];
  return raw.filter((c): c is StreamChunk => !!c && typeof c === 'object' && typeof (c as StreamChunk).text === 'string' && typeof (c as StreamChunk).name === 'string');
}

function renderStream(chunk: StreamChunk, tag: 'li' | 'div'): HTMLElement {
  return h(tag, { class: `nh-stream nh-stream-${chunk.name === 'stderr' ? 'stderr' : 'stdout'}`, 'aria-label': chunk.name }, h('pre', { text: chunk.text.replace(/\n$/, '') }));
}

/** The longest value preview shown on one row; the full preview is on hover. */
const VALUE_PREVIEW_SHOWN = 120;

function operationLabel(op: OperationPayload): string {
  // The expression is what the operator judges; the built-in tool name adds nothing to it.
  if (op.kind === 'tool' && op.toolName) return op.toolName;
  if (op.kind === 'assign' && op.targetPath) return `${op.targetPath} = ${op.expression ?? '…'}`;
  // An output says which outcome it proposed: "return x", "pass", "raise …", never "output output".
  if (op.kind === 'output') return [extra(op, 'outcome') ?? (op.expression ? 'return' : 'output'), op.expression].filter(Boolean).join(' ');
  if (op.expression) return op.expression;
  if (op.toolName && !op.toolName.startsWith('nh_')) return op.toolName;
  return op.kind;
}

/** Scrolls to the operation that blocked a skipped one and flashes it; prefers the same output. */
function revealOperation(from: HTMLElement, operationId: string): void {
  const selector = `[data-operation-id="${CSS.escape(operationId)}"]`;
  const scope = from.closest('.nh-run') ?? from.closest('.output') ?? document;
  const target = scope.querySelector<HTMLElement>(selector) ?? document.querySelector<HTMLElement>(selector);
  if (!target) return;
  target.scrollIntoView({ block: 'center', behavior: 'smooth' });
  target.classList.remove('nh-flash');
  void target.offsetWidth; // restart the animation
  target.classList.add('nh-flash');
  target.focus({ preventScroll: true });
}

function valuePreview(op: OperationPayload): HTMLElement | null {
  const preview = extra(op, 'valuePreview');
  if (preview === undefined) return null;
  const shown = preview.length > VALUE_PREVIEW_SHOWN ? `${preview.slice(0, VALUE_PREVIEW_SHOWN - 1)}…` : preview;
  return h('code', { class: 'nh-op-value', title: preview, 'aria-label': `value ${preview}`, text: `→ ${shown}` });
}

export function renderOperation(op: OperationPayload): HTMLElement {
  const li = h('li', {
    class: `nh-op nh-op-${op.status}`,
    'data-operation-id': op.operationId,
    'data-status': op.status,
    tabindex: -1,
  });
  li.append(
    h('div', { class: 'nh-op-head' },
      statusBadge(op.status),
      h('span', { class: 'nh-op-kind', text: op.kind }),
      h('code', { class: 'nh-op-label', text: operationLabel(op) }),
      valuePreview(op),
      h('span', { class: 'nh-id', text: op.operationId })),
  );
  if (op.rejection) {
    li.append(
      h('div', { class: 'nh-rejection' },
        h('div', { class: 'nh-reason' }, h('strong', { text: 'Rejected: ' }), op.rejection.reason),
        op.rejection.guidance ? h('div', { class: 'nh-guidance' }, h('strong', { text: 'Guidance: ' }), op.rejection.guidance) : null),
    );
  }
  if (op.abortReason) li.append(h('div', { class: 'nh-abort' }, h('strong', { text: 'Aborted: ' }), op.abortReason));
  if (op.failure) li.append(h('div', { class: 'nh-failure' }, h('strong', { text: `${op.failure.errorClass}: ` }), op.failure.message));
  if (op.blockedByOperationId) {
    const blocker = op.blockedByOperationId;
    const link = h('a', { href: `#op-${blocker}`, class: 'nh-blocked-link', text: blocker });
    link.addEventListener('click', (ev) => {
      ev.preventDefault();
      revealOperation(link, blocker);
    });
    li.append(h('div', { class: 'nh-blocked' }, 'Skipped because ', link, ' did not complete'));
  }
  return li;
}

function formatValue(value: unknown): string {
  if (value === undefined) return '—';
  try {
    return typeof value === 'string' ? JSON.stringify(value) : JSON.stringify(value, null, 0) ?? String(value);
  } catch {
    return String(value);
  }
}

export function renderStepCommit(commit: StepCommitPayload): HTMLElement {
  const keys = [...new Set([...Object.keys(commit.proposed), ...Object.keys(commit.committed)])];
  const rows = keys.map((key) => {
    const proposed = formatValue(commit.proposed[key]);
    const committed = formatValue(commit.committed[key]);
    const changed = proposed !== committed;
    return h('tr', { class: changed ? 'nh-changed' : '' },
      h('th', { scope: 'row', text: key }),
      h('td', {}, changed ? h('del', { text: proposed }) : h('span', { text: proposed })),
      h('td', {}, changed ? h('ins', { text: committed }) : h('span', { text: committed })));
  });
  return h('div', { class: 'nh-commit' },
    h('div', { class: 'nh-commit-head' }, h('strong', { text: 'Step commit' }), commit.rewritten ? statusBadge('rewritten') : null),
    h('table', { class: 'nh-commit-table' },
      h('thead', {}, h('tr', {}, h('th', { scope: 'col', text: 'binding' }), h('th', { scope: 'col', text: 'proposed' }), h('th', { scope: 'col', text: 'committed' }))),
      h('tbody', {}, ...rows)));
}

function renderExecution(exec: ExecutionPayload, children: Map<string, ExecutionPayload[]>): HTMLElement {
  const li = h('li', { class: `nh-execution nh-exec-${exec.status}`, 'data-execution-id': exec.executionId });
  li.append(h('div', { class: 'nh-exec-head' },
    statusBadge(exec.status),
    h('span', { class: 'nh-exec-title', text: `Natural step ${exec.stepId}` }),
    h('span', { class: 'nh-id', text: exec.executionId })));
  const streams = streamsOf(exec);
  if (exec.operations.length || streams.length) {
    // Printed text sits between the operations it happened between.
    const at = (id: string | undefined): HTMLElement[] => streams.filter((c) => c.afterOperationId === id).map((c) => renderStream(c, 'li'));
    li.append(h('ol', { class: 'nh-ops', 'aria-label': 'operations' }, ...at(undefined), ...exec.operations.flatMap((op) => [renderOperation(op), ...at(op.operationId)])));
  }
  if (exec.commit) li.append(renderStepCommit(exec.commit));
  if (exec.error) li.append(h('div', { class: 'nh-failure' }, h('strong', { text: `${exec.error.name}: ` }), exec.error.message));
  const nested = children.get(exec.executionId) ?? [];
  if (nested.length) li.append(h('ol', { class: 'nh-executions' }, ...nested.map((c) => renderExecution(c, children))));
  return li;
}

export function renderExecutions(executions: ExecutionPayload[], streams: StreamChunk[] = []): HTMLElement {
  const ids = new Set(executions.map((e) => e.executionId));
  const children = new Map<string, ExecutionPayload[]>();
  const roots: ExecutionPayload[] = [];
  for (const exec of executions) {
    if (exec.parentExecutionId && ids.has(exec.parentExecutionId)) {
      const list = children.get(exec.parentExecutionId) ?? [];
      list.push(exec);
      children.set(exec.parentExecutionId, list);
    } else roots.push(exec);
  }
  // Run-level text goes after the root whose subtree holds the execution it followed.
  const rootOf = new Map<string, string>();
  const mark = (root: string, exec: ExecutionPayload): void => {
    rootOf.set(exec.executionId, root);
    for (const c of children.get(exec.executionId) ?? []) mark(root, c);
  };
  for (const r of roots) mark(r.executionId, r);
  const after = (root: string | undefined): HTMLElement[] =>
    streams.filter((c) => (c.afterExecutionId ? rootOf.get(c.afterExecutionId) ?? c.afterExecutionId : undefined) === root).map((c) => renderStream(c, 'li'));
  return h('ol', { class: 'nh-executions' }, ...after(undefined), ...roots.flatMap((r) => [renderExecution(r, children), ...after(r.executionId)]));
}

export function renderRun(run: RunPayload): HTMLElement {
  const ops = run.executions.flatMap((e) => e.operations);
  const counts = new Map<string, number>();
  for (const op of ops) counts.set(op.status, (counts.get(op.status) ?? 0) + 1);
  const summary = [...counts].map(([s, n]) => `${n} ${s}`).join(', ');
  return h('section', { class: `nh-run nh-run-${run.status}`, 'data-run-id': run.runId, 'aria-label': `run ${run.functionName}` },
    h('header', { class: 'nh-run-head' },
      statusBadge(run.status),
      h('strong', { class: 'nh-run-fn', text: run.functionName }),
      h('span', { class: 'nh-id', text: run.runId }),
      h('span', { class: 'nh-run-summary', text: summary }),
      run.status === 'running' ? h('span', { class: 'nh-spinner', role: 'progressbar', 'aria-label': 'run in progress' }) : null),
    renderExecutions(run.executions, streamsOf(run)));
}

export function renderSingleExecution(exec: ExecutionPayload): HTMLElement {
  return h('section', { class: 'nh-run' }, renderExecutions([exec]));
}

export function renderSingleOperation(op: OperationPayload): HTMLElement {
  return h('section', { class: 'nh-run' }, h('ol', { class: 'nh-ops' }, renderOperation(op)));
}
