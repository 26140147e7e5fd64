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

function operationLabel(op: OperationPayload): string {
  // The expression is what the operator judges; the built-in tool name adds nothing to it.
  if (op.kind === 'tool' && op.toolName) return op.toolName;
  if (op.kind === 'assign' && op.targetPath) return `${op.targetPath} = ${op.expression ?? '…'}`;
  if (op.expression) return op.kind === 'output' ? `return ${op.expression}` : op.expression;
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
  if (exec.operations.length) li.append(h('ol', { class: 'nh-ops', 'aria-label': 'operations' }, ...exec.operations.map(renderOperation)));
  if (exec.commit) li.append(renderStepCommit(exec.commit));
  if (exec.error) li.append(h('div', { class: 'nh-failure' }, h('strong', { text: `${exec.error.name}: ` }), exec.error.message));
  const nested = children.get(exec.executionId) ?? [];
  if (nested.length) li.append(h('ol', { class: 'nh-executions' }, ...nested.map((c) => renderExecution(c, children))));
  return li;
}

export function renderExecutions(executions: ExecutionPayload[]): HTMLElement {
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
  return h('ol', { class: 'nh-executions' }, ...roots.map((r) => renderExecution(r, children)));
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
    renderExecutions(run.executions));
}

export function renderSingleExecution(exec: ExecutionPayload): HTMLElement {
  return h('section', { class: 'nh-run' }, renderExecutions([exec]));
}

export function renderSingleOperation(op: OperationPayload): HTMLElement {
  return h('section', { class: 'nh-run' }, h('ol', { class: 'nh-ops' }, renderOperation(op)));
}
