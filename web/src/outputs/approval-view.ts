/**
 * The operator-approval prompt: the operation under review plus accept / reject (with reason and
 * guidance) / abort controls. The answer goes back over stdin as a JSON string (see ApprovalAnswer).
 * Once answered (here, or by the kernel's update of the card) it collapses to one line.
 */
import type { ApprovalAnswer, ApprovalPayload } from '../../../shared/ui-types.js';
import { button, h } from '../dom.js';
import { renderOperation } from './call-tree.js';

export type ApprovalSink = (requestId: string, answer: ApprovalAnswer) => void;

let counter = 0;

/** What the kernel adds to the card once answered (kernel: notebook-bridge answeredBy). */
interface Answered {
  kind: string;
  by?: string;
  at?: number;
  reason?: string;
  guidance?: string;
}

function answeredOf(payload: ApprovalPayload): Answered | undefined {
  const a = (payload as Record<string, unknown>).answered;
  return a && typeof a === 'object' && typeof (a as Answered).kind === 'string' ? (a as Answered) : undefined;
}

const VERB: Record<string, string> = { accept: 'accepted', 'reject-operation': 'rejected', 'abort-step': 'aborted' };
const STATUS: Record<string, string> = { accept: 'completed', 'reject-operation': 'rejected', 'abort-step': 'aborted' };

function clock(at: number | undefined): string {
  const d = new Date(at ?? Date.now());
  return [d.getHours(), d.getMinutes(), d.getSeconds()].map((n) => String(n).padStart(2, '0')).join(':');
}

/** The one-line form of an answered card; the operation and the reason are one click away. */
export function renderAnsweredApproval(payload: ApprovalPayload, answered: Answered): HTMLElement {
  const verb = VERB[answered.kind] ?? answered.kind;
  const line = `${verb} by ${answered.by ?? 'operator'}, ${clock(answered.at)}`;
  const details = h('details', { class: `nh-approval nh-approval-answered nh-approval-${verb}`, 'data-answered': answered.kind, 'data-request-id': payload.requestId, 'aria-label': `approval ${line}` },
    h('summary', { class: 'nh-approval-line' },
      h('span', { class: `nh-badge nh-status-${STATUS[answered.kind] ?? 'pending'}`, text: verb }),
      h('span', { class: 'nh-approval-what', text: payload.prompt.replace(/ Allow it\?$/, '') }),
      h('span', { class: 'nh-approval-when', text: line })),
    h('ol', { class: 'nh-ops' }, renderOperation({ ...payload.operation, status: (STATUS[answered.kind] ?? 'completed') as ApprovalPayload['operation']['status'] })),
    answered.reason ? h('div', { class: 'nh-reason' }, h('strong', { text: 'Reason: ' }), answered.reason) : null,
    answered.guidance ? h('div', { class: 'nh-guidance' }, h('strong', { text: 'Guidance: ' }), answered.guidance) : null);
  return details;
}

export function renderApproval(payload: ApprovalPayload, send: ApprovalSink): HTMLElement {
  const done = answeredOf(payload);
  if (done) return renderAnsweredApproval(payload, done);
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
    send(payload.requestId, value);
    // Collapse at once; the kernel's update of the card (same display id) says the same thing.
    form.replaceWith(renderAnsweredApproval(payload, { ...value, by: 'operator', at: Date.now() }));
  };
  const text = (input: HTMLInputElement): string => input.value.trim();
  controls.push(
    button('Accept', () => answer({ kind: 'accept' }), { class: 'btn btn-accept' }),
    button('Reject', () => answer({ kind: 'reject-operation', reason: text(reason), ...(text(guidance) ? { guidance: text(guidance) } : {}) }), { class: 'btn btn-reject' }),
    button('Abort step', () => answer({ kind: 'abort-step', reason: text(reason) }), { class: 'btn btn-abort' }),
  );
  form.addEventListener('submit', (ev) => ev.preventDefault());
  form.append(
    h('p', { class: 'nh-approval-prompt' }, h('strong', { text: 'Approval needed. ' }), payload.prompt),
    h('ol', { class: 'nh-ops' }, renderOperation(payload.operation)),
    h('div', { class: 'nh-approval-fields' },
      h('label', { for: `${uid}-reason`, text: 'Reason' }), reason,
      h('label', { for: `${uid}-guidance`, text: 'Guidance' }), guidance),
    h('div', { class: 'nh-approval-buttons' }, ...controls),
    status,
  );
  return form;
}
