/**
 * One cell's outputs: applies iopub messages to the cell's nbformat output list (streams merged per
 * name, clear_output with wait, display ids kept for update_display_data) and keeps one DOM node per
 * output so an update re-renders only what changed.
 */
import type { KernelMessage } from '@jupyterlab/services';
import { renderAnsi } from '../ansi.js';
import { afterPaint, button, h } from '../dom.js';
import type { MimeBundle, Output } from '../notebook-model.js';
import { loadRenderers, renderersIfLoaded } from './render-loader.js';
import type { RenderContext } from './render-mime.js';

export class OutputArea {
  readonly element: HTMLElement;
  private nodes: HTMLElement[] = [];
  private clearPending = false;
  /** Rich renderings waiting for the renderers chunk (see renderOne). */
  private readonly richPending = new Set<Promise<void>>();
  /** Each drawn output's estimated height, set when it is drawn (so a stream's every chunk does not rescan all the text). */
  private readonly heightOf = new WeakMap<HTMLElement, number>();

  /** `onResize`: told the outputs' estimated height (estimatedHeight) whenever they are drawn, the first time included. */
  constructor(
    private outputs: Output[],
    private readonly ctx: RenderContext,
    private readonly onChange: () => void,
    private readonly onResize: (px: number) => void = () => {},
  ) {
    this.element = h('div', { class: 'outputs', 'aria-live': 'polite', 'aria-label': 'cell output' });
    this.renderAll();
  }

  /** Resolves once every output drawn so far as plain text has been redrawn rich (an approval display, say). */
  async whenRendered(): Promise<void> {
    await Promise.all([...this.richPending]);
  }

  /** Replaces the output list (restored draft, restart) and re-renders. */
  reset(outputs: Output[]): void {
    this.outputs = outputs;
    this.renderAll();
  }

  get list(): Output[] {
    return this.outputs;
  }

  /**
   * The outputs' height in pixels as their text has it (a rich output counts a typical box): the size the cell
   * holds while the browser has not laid it out yet (styles.css: content-visibility), not a measurement.
   */
  private estimatedHeight(): number {
    let px = this.nodes.length > 0 ? OUTPUTS_MARGIN_PX : 0;
    for (const node of this.nodes) px += this.heightOf.get(node) ?? 0;
    return px;
  }

  clear(wait = false): void {
    if (wait) {
      this.clearPending = true;
      return;
    }
    this.outputs.length = 0;
    this.clearPending = false;
    this.renderAll();
    this.onChange();
  }

  /** Applies one iopub message; returns false for message types that are not outputs. */
  handle(msg: KernelMessage.IIOPubMessage): boolean {
    const content = msg.content as Record<string, unknown>;
    switch (msg.header.msg_type) {
      case 'stream':
        this.add({ output_type: 'stream', name: content.name === 'stderr' ? 'stderr' : 'stdout', text: String(content.text ?? '') });
        return true;
      case 'display_data':
      case 'execute_result': {
        const displayId = (content.transient as { display_id?: unknown } | undefined)?.display_id;
        const data = (content.data ?? {}) as MimeBundle;
        const metadata = (content.metadata ?? {}) as Record<string, unknown>;
        const extra = typeof displayId === 'string' ? { displayId } : {};
        this.add(msg.header.msg_type === 'execute_result'
          ? { output_type: 'execute_result', data, metadata, execution_count: typeof content.execution_count === 'number' ? content.execution_count : null, ...extra }
          : { output_type: 'display_data', data, metadata, ...extra });
        return true;
      }
      case 'error': {
        const internals = (msg.metadata as Record<string, unknown> | undefined)?.['nighthawk/internals'];
        this.add({
          output_type: 'error',
          ename: String(content.ename ?? 'Error'),
          evalue: String(content.evalue ?? ''),
          traceback: Array.isArray(content.traceback) ? content.traceback.map(String) : [],
          ...(Array.isArray(internals) && internals.length ? { internals: internals.map(String) } : {}),
        });
        return true;
      }
      case 'clear_output':
        this.clear(content.wait === true);
        return true;
      default:
        return false;
    }
  }

  /** Replaces the data of every output carrying `displayId`; returns whether any matched. */
  updateDisplay(displayId: string, data: MimeBundle, metadata: Record<string, unknown>): boolean {
    let hit = false;
    this.outputs.forEach((out, i) => {
      if ((out.output_type === 'display_data' || out.output_type === 'execute_result') && out.displayId === displayId) {
        out.data = data;
        out.metadata = metadata;
        this.rerender(i);
        hit = true;
      }
    });
    if (hit) this.onChange();
    return hit;
  }

  private add(output: Output): void {
    if (this.clearPending) {
      this.outputs.length = 0;
      this.clearPending = false;
      this.renderAll();
    }
    const last = this.outputs[this.outputs.length - 1];
    if (output.output_type === 'stream' && last?.output_type === 'stream' && last.name === output.name) {
      last.text = applyCarriageReturns(last.text + output.text);
      this.rerender(this.outputs.length - 1);
    } else {
      if (output.output_type === 'stream') output.text = applyCarriageReturns(output.text);
      this.outputs.push(output);
      const node = this.renderOne(output);
      this.nodes.push(node);
      this.element.appendChild(node);
      this.onResize(this.estimatedHeight());
    }
    this.onChange();
  }

  private renderAll(): void {
    this.nodes = this.outputs.map((o) => this.renderOne(o));
    this.element.replaceChildren(...this.nodes);
    this.onResize(this.estimatedHeight());
  }

  private rerender(index: number): void {
    const node = this.renderOne(this.outputs[index]!);
    this.nodes[index]?.replaceWith(node);
    this.nodes[index] = node;
    this.onResize(this.estimatedHeight());
  }

  private renderOne(output: Output): HTMLElement {
    const wrap = h('div', { class: `output output-${output.output_type}` });
    switch (output.output_type) {
      case 'stream':
        wrap.classList.add(`output-${output.name}`);
        wrap.appendChild(h('pre', { class: 'output-text' }, renderAnsi(output.text)));
        break;
      case 'error':
        wrap.setAttribute('role', 'alert');
        // Kernels put `ename: evalue` in the traceback already (as Jupyter renders it); show it once.
        if (output.traceback.length) wrap.appendChild(h('pre', { class: 'traceback' }, renderAnsi(output.traceback.join('\n'))));
        else wrap.appendChild(h('div', { class: 'error-head' }, h('strong', { text: output.ename }), output.evalue ? `: ${output.evalue}` : ''));
        if (output.internals) wrap.appendChild(internalsToggle(output.internals));
        break;
      default: {
        const renderers = renderersIfLoaded();
        if (renderers) wrap.appendChild(renderers.renderBundle(output.data, this.ctx));
        else {
          // Before the renderers arrive: the plain text, then the rich rendering in its place.
          const plain = output.data['text/plain'];
          if (typeof plain === 'string') wrap.appendChild(h('pre', { class: 'output-text' }, renderAnsi(plain)));
          const { data } = output;
          // After the plain text painted: the chunk's script would otherwise hold up the frame showing the result.
          const rich: Promise<void> = new Promise<void>((resolve) => afterPaint(resolve))
            .then(loadRenderers)
            .then((r) => void wrap.replaceChildren(r.renderBundle(data, this.ctx)))
            .catch((error: unknown) => reportError(error)) // the plain text stays; the console says why
            .finally(() => this.richPending.delete(rich));
          this.richPending.add(rich);
        }
      }
    }
    const lines = textLines(output);
    const height = OUTPUT_PAD_PX + (lines > 0 ? Math.min(lines * TEXT_LINE_PX, LONG_OUTPUT_PX) : RICH_OUTPUT_PX);
    if (lines > LONG_OUTPUT_LINES) {
      // Long text scrolls inside a bounded box (a 400-line print no longer makes a 7,500 px cell).
      wrap.classList.add('output-long');
      const more = button(`Show all ${lines} lines`, () => {
        const expanded = wrap.classList.toggle('expanded');
        const label = expanded ? 'Show less' : `Show all ${lines} lines`;
        more.textContent = label;
        more.setAttribute('aria-label', label);
        more.title = label;
        more.setAttribute('aria-expanded', String(expanded));
      }, { class: 'btn output-more', 'aria-expanded': 'false', text: `Show all ${lines} lines` });
      const long = h('div', { class: 'output-long-wrap' }, wrap, more);
      this.heightOf.set(long, height);
      return long;
    }
    this.heightOf.set(wrap, height);
    return wrap;
  }
}

/** The library's frames of an error, folded away: the traceback above shows only the operator's cells. */
function internalsToggle(frames: readonly string[]): HTMLElement {
  const list = h('pre', { class: 'traceback traceback-internals', hidden: true }, frames.map((f) => `    ${f}`).join('\n'));
  const label = (open: boolean): string => `${open ? 'Hide' : 'Show'} internals (${frames.length} library frame${frames.length === 1 ? '' : 's'})`;
  const toggle = button(label(false), () => {
    const open = list.hidden;
    list.hidden = !open;
    toggle.textContent = label(open);
    toggle.setAttribute('aria-label', label(open));
    toggle.title = label(open);
    toggle.setAttribute('aria-expanded', String(open));
  }, { class: 'btn error-internals', 'aria-expanded': 'false', text: label(false) });
  return h('div', { class: 'error-internals-wrap' }, toggle, list);
}

/** Outputs longer than this many lines are shown in a scrolled box with a "show all" button. */
export const LONG_OUTPUT_LINES = 40;
/** For estimatedHeight (styles.css): a line of output text (13px/1.45), an output's padding, the outputs' margin, a long output's box (30em), a rich output. */
const TEXT_LINE_PX = 13 * 1.45;
const OUTPUT_PAD_PX = 4;
const OUTPUTS_MARGIN_PX = 4;
const LONG_OUTPUT_PX = 420;
const RICH_OUTPUT_PX = 150;

function textLines(output: Output): number {
  let text = '';
  if (output.output_type === 'stream') text = output.text;
  else if (output.output_type === 'error') text = output.traceback.join('\n');
  else {
    const plain = output.data['text/plain'];
    const richer = Object.keys(output.data).some((m) => m !== 'text/plain' && !m.startsWith('text/'));
    if (typeof plain === 'string' && !richer) text = plain;
  }
  let n = 1;
  for (let i = text.indexOf('\n'); i >= 0 && i < text.length - 1; i = text.indexOf('\n', i + 1)) n++;
  return text ? n : 0;
}

/** A lone `\r` rewinds to the start of the line, as progress bars printed to a terminal expect. */
function applyCarriageReturns(text: string): string {
  if (!text.includes('\r')) return text;
  return text
    .replace(/\r\n/g, '\n')
    .split('\n')
    .map((line) => {
      const parts = line.split('\r');
      return parts[parts.length - 1] === '' && parts.length > 1 ? parts[parts.length - 2]! : parts[parts.length - 1]!;
    })
    .join('\n');
}
