/**
 * Picks the richest MIME type a renderer exists for and renders it. Project payloads are validated with
 * the shared zod schemas; a payload that does not match falls through to the next type, and finally to
 * text/plain, so a schema drift never blanks an output.
 */
import type * as z from 'zod/mini';
import { NighthawkMime } from '../../../shared/mime.js';
import {
  AllocationExhaustedPayloadSchema,
  ApprovalPayloadSchema,
  ExecutionPayloadSchema,
  LedgerPayloadSchema,
  OperationPayloadSchema,
  RunPayloadSchema,
  StepCommitPayloadSchema,
  TraceAnomalyPayloadSchema,
} from '../../../shared/ui-types.js';
import { renderAnsi } from '../ansi.js';
import { h } from '../dom.js';
import { renderMarkdown } from '../markdown.js';
import type { MimeBundle } from '../notebook-model.js';
import { sanitizeHtml } from '../sanitize.js';
import { renderApproval, type ApprovalSink } from './approval-view.js';
import { renderRun, renderSingleExecution, renderSingleOperation, renderStepCommit, statusBadge } from './call-tree.js';
import { LedgerView } from './ledger-view.js';

export interface RenderContext {
  answerApproval: ApprovalSink;
}

type Renderer = (value: unknown, ctx: RenderContext) => HTMLElement | null;

function parsed<S extends z.ZodMiniType>(schema: S, render: (payload: z.infer<S>, ctx: RenderContext) => HTMLElement): Renderer {
  return (value, ctx) => {
    const result = schema.safeParse(typeof value === 'string' ? safeJson(value) : value);
    return result.success ? render(result.data, ctx) : null;
  };
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

const asText = (value: unknown): string | null => (typeof value === 'string' ? value : null);

function base64Image(mime: string): Renderer {
  return (value) => {
    const data = asText(value);
    if (!data) return null;
    return h('img', { src: `data:${mime};base64,${data.replace(/\s/g, '')}`, alt: 'image output', class: 'output-image' });
  };
}

/** Renderers in preference order (richest first). */
const RENDERERS: ReadonlyArray<readonly [string, Renderer]> = [
  [NighthawkMime.approval, parsed(ApprovalPayloadSchema, (p, ctx) => renderApproval(p, ctx.answerApproval))],
  [NighthawkMime.run, parsed(RunPayloadSchema, renderRun)],
  [NighthawkMime.execution, parsed(ExecutionPayloadSchema, renderSingleExecution)],
  [NighthawkMime.operation, parsed(OperationPayloadSchema, renderSingleOperation)],
  [NighthawkMime.stepCommit, parsed(StepCommitPayloadSchema, renderStepCommit)],
  [NighthawkMime.traceAnomaly, parsed(TraceAnomalyPayloadSchema, (p) =>
    h('div', { class: 'nh-anomaly', role: 'alert' }, statusBadge('anomaly'), h('strong', { text: ` ${p.anomalyKind}${p.count !== undefined && p.count > 1 ? ` ×${p.count}` : ''}: ` }), p.message,
      p.runId ? h('span', { class: 'nh-id', text: ` run ${p.runId}` }) : null,
      p.executionId ? h('span', { class: 'nh-id', text: ` execution ${p.executionId}` }) : null))],
  [NighthawkMime.allocationExhausted, parsed(AllocationExhaustedPayloadSchema, (p) =>
    h('div', { class: 'nh-exhausted', role: 'alert' }, statusBadge('exhausted'), h('strong', { text: ' Allocation exhausted: ' }), p.resource,
      h('span', { class: 'nh-id', text: ` run ${p.runId}` })))],
  [NighthawkMime.ledger, parsed(LedgerPayloadSchema, (p) => new LedgerView(p).element)],
  ['text/html', (v) => { const t = asText(v); return t === null ? null : h('div', { class: 'output-html' }, sanitizeHtml(t)); }],
  ['text/markdown', (v) => { const t = asText(v); return t === null ? null : h('div', { class: 'output-markdown markdown-body' }, renderMarkdown(t)); }],
  // Served as <img>, so scripts inside the SVG never run.
  ['image/svg+xml', (v) => { const t = asText(v); return t === null ? null : h('img', { src: `data:image/svg+xml;charset=utf-8,${encodeURIComponent(t)}`, alt: 'SVG output', class: 'output-image' }); }],
  ['image/png', base64Image('image/png')],
  ['image/jpeg', base64Image('image/jpeg')],
  // text/plain before application/json, as JupyterLab and VS Code rank them: a value reads as the
  // kernel's util.inspect text ('x', Map(1) {…}), the same in every frontend; JSON alone still renders.
  ['text/plain', (v) => { const t = asText(v); return t === null ? null : h('pre', { class: 'output-text' }, renderAnsi(t)); }],
  ['application/json', (v) => h('pre', { class: 'output-json', text: JSON.stringify(typeof v === 'string' ? safeJson(v) ?? v : v, null, 2) })],
];

export function renderBundle(data: MimeBundle, ctx: RenderContext): HTMLElement {
  for (const [mime, render] of RENDERERS) {
    if (!(mime in data)) continue;
    const el = render(data[mime], ctx);
    if (el) {
      el.dataset.mime = mime;
      return el;
    }
  }
  // Unknown types only: show whatever is there as text rather than nothing.
  const [mime, value] = Object.entries(data)[0] ?? ['text/plain', ''];
  return h('pre', { class: 'output-text', 'data-mime': mime, text: typeof value === 'string' ? value : JSON.stringify(value, null, 2) });
}
