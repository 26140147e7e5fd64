/**
 * The operator-approval prompt: the operation under review plus accept / reject (with reason and
 * guidance) / abort controls. The answer goes back over stdin as a JSON string (see ApprovalAnswer).
 */
import type { ApprovalAnswer, ApprovalPayload } from '../../../shared/ui-types.js';
import { button, h } from '../dom.js';
import { renderOperation } from './call-tree.js';

export type ApprovalSink = (requestId: string, answer: ApprovalAnswer) => void;

let counter = 0;

export function renderApproval(payload: ApprovalPayload, send: ApprovalSink): HTMLElement {
  const uid = `approval-${++counter}`;
  const reason = h('input', { id: `${uid}-reason`, type: 'text', class: 'nh-approval-reason', placeholder: 'Why is this not allowed?' });
  const guidance = h('input', { id: `${uid}-guidance`, type: 'text', class: 'nh-approval-guidance', placeholder: 'What should the model do instead?' });
  const status = h('p', { class: 'nh-approval-status', role: 'status' });
  const form = h('form', { class: 'nh-approval', 'aria-label': 'operator approval', 'data-request-id': payload.requestId });
  const controls: HTMLButtonElement[] = [];
  const answer = (value: ApprovalAnswer): void => {
    if (value.kind !== 'accept' && !value.reason) {
      status.textContent = 'Give a reason first.';
      reason.focus();
      return;
    }
    for (const el of [...controls, reason, guidance]) el.disabled = true;
    form.dataset.answered = value.kind;
    status.textContent = value.kind === 'accept' ? 'Accepted.' : value.kind === 'reject-operation' ? `Rejected: ${value.reason}` : `Step aborted: ${value.reason}`;
    send(payload.requestId, value);
  };
  const text = (input: HTMLInputElement): string => input.value.trim();
  controls.push(
    button('Accept', () => answer({ kind: 'accept' }), { class: 'btn btn-accept' }),
    button('Reject', () => answer({ kind: 'reject-operation', reason: text(reason), ...(text(guidance) ? { guidance: text(guidance) } : {}) }), { class: 'btn btn-reject' }),
    button('Abort step', () => answer({ kind: 'abort-step', reason: text(reason) }), { class: 'btn btn-abort' }),
  );
  form.addEventListener('submit', (ev) => ev.preventDefault());
  form.append(
    h('p', { class: 'nh-approval-prompt' }, h('strong', { text: 'Approval needed: ' }), payload.prompt),
    h('ol', { class: 'nh-ops' }, renderOperation(payload.operation)),
    h('div', { class: 'nh-approval-fields' },
      h('label', { for: `${uid}-reason`, text: 'Reason' }), reason,
      h('label', { for: `${uid}-guidance`, text: 'Guidance' }), guidance),
    h('div', { class: 'nh-approval-buttons' }, ...controls),
    status,
  );
  return form;
}
