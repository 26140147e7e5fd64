/**
 * The run ledger as a table whose height fits its rows up to a limit. Up to FLOW_LIMIT rows are laid out
 * normally (summaries wrap, a clicked row expands in place); more are virtualized with a fixed row height,
 * so only the rows in (or just around) the viewport exist and 10,000 entries scroll as smoothly as 10.
 * Filters narrow an index list; they never touch the DOM rows directly. Clicking a row shows the event's
 * snapshot as pretty JSON and highlights the matching node of the run view.
 */
import type { LedgerEventKind } from '../../../shared/ledger-events.js';
import type { LedgerEntryPayload, LedgerPayload } from '../../../shared/ui-types.js';
import { h } from '../dom.js';

export const LEDGER_ROW_HEIGHT = 28;
const OVERSCAN = 8;
const DEFAULT_VIEWPORT = 360;
/** Above this many rows the table is virtualized (fixed row height, one-line summaries). */
export const FLOW_LIMIT = 200;

/** Label plus the id's last characters: run ids share their leading (time and process) characters. */
export function shortRunId(runId: string, label?: string): string {
  const tail = runId.length > 6 ? runId.slice(-6) : runId;
  return label ? `${label}·${tail}` : runId.length > 10 ? `run·${tail}` : runId;
}

const field = (e: LedgerEntryPayload, name: string): unknown => (e as Record<string, unknown>)[name];
const strField = (e: LedgerEntryPayload, name: string): string | undefined => {
  const v = field(e, name);
  return typeof v === 'string' ? v : undefined;
};

function prettyJson(value: unknown): string {
  try {
    return JSON.stringify(value, null, 2) ?? String(value);
  } catch {
    return String(value);
  }
}

/** The run view node (operation, execution or run) a ledger entry is about, if one is on the page. */
function runViewNode(entry: LedgerEntryPayload): HTMLElement | null {
  const ids = [strField(entry, 'subjectId'), entry.parentId].filter((v): v is string => !!v);
  for (const id of ids) {
    const q = CSS.escape(id);
    const node = document.querySelector<HTMLElement>(`.nh-run [data-operation-id="${q}"], .nh-run [data-execution-id="${q}"], .nh-run[data-run-id="${q}"]`);
    if (node) return node;
  }
  return document.querySelector<HTMLElement>(`.nh-run[data-run-id="${CSS.escape(entry.runId)}"]`);
}

function formatAt(at: string | number): string {
  const date = new Date(at);
  return Number.isNaN(date.getTime()) ? String(at) : date.toISOString().slice(11, 23);
}

function select(label: string, plural: string, values: string[], onChange: () => void, show: (v: string) => string = (v) => v): HTMLSelectElement {
  const el = h('select', { 'aria-label': label }, h('option', { value: '', text: `all ${plural}` }), ...values.map((v) => h('option', { value: v, text: show(v), title: v })));
  el.addEventListener('change', onChange);
  return el;
}

export class LedgerView {
  readonly element: HTMLElement;
  private readonly viewport: HTMLElement;
  private readonly spacer: HTMLElement;
  private readonly layer: HTMLElement;
  private readonly count: HTMLElement;
  private readonly runFilter: HTMLSelectElement;
  private readonly kindFilter: HTMLSelectElement;
  private readonly statusFilter: HTMLSelectElement;
  private readonly textFilter: HTMLInputElement;
  private readonly entries: LedgerEntryPayload[];
  private searchText: string[] | undefined;
  private visible: number[] = [];
  private pool: HTMLElement[] = [];
  private renderedFirst = -1;
  private frame = 0;
  private readonly labels = new Map<string, string>();
  private readonly detail: HTMLElement;
  /** The sequence number of the expanded row. */
  private expanded: number | undefined;
  private highlighted: HTMLElement | null = null;

  constructor(payload: LedgerPayload) {
    this.entries = [...payload.entries].sort((a, b) => a.sequence - b.sequence);
    const uniq = (pick: (e: LedgerEntryPayload) => string | undefined): string[] =>
      [...new Set(this.entries.map(pick).filter((v): v is string => !!v))].sort();
    const refilter = (): void => this.applyFilters();
    for (const e of this.entries) {
      const label = strField(e, 'runLabel');
      if (label) this.labels.set(e.runId, label);
    }
    this.runFilter = select('run', 'runs', uniq((e) => e.runId), refilter, (id) => shortRunId(id, this.labels.get(id)));
    this.detail = h('div', { class: 'nh-ledger-detail', role: 'region', 'aria-label': 'ledger event' });
    this.kindFilter = select('kind', 'kinds', uniq((e) => e.kind), refilter);
    this.statusFilter = select('status', 'statuses', uniq((e) => e.status), refilter);
    this.textFilter = h('input', { type: 'search', placeholder: 'Filter text…', 'aria-label': 'filter ledger text', class: 'nh-ledger-search' });
    this.textFilter.addEventListener('input', refilter);
    this.count = h('span', { class: 'nh-ledger-count', 'aria-live': 'polite' });
    this.spacer = h('div', { class: 'nh-ledger-spacer' });
    this.layer = h('div', { class: 'nh-ledger-rows', role: 'rowgroup' });
    this.viewport = h('div', { class: 'nh-ledger-viewport', tabindex: 0, 'aria-label': 'ledger entries' }, this.spacer, this.layer);
    this.viewport.addEventListener('scroll', () => this.schedule(), { passive: true });
    this.layer.addEventListener('click', (ev) => {
      const row = (ev.target as Element).closest<HTMLElement>('.nh-ledger-row');
      if (row?.dataset.sequence) this.toggle(Number(row.dataset.sequence));
    });
    this.layer.addEventListener('keydown', (ev) => {
      const row = (ev.target as Element).closest<HTMLElement>('.nh-ledger-row');
      if (!row?.dataset.sequence || (ev.key !== 'Enter' && ev.key !== ' ')) return;
      ev.preventDefault();
      ev.stopPropagation();
      this.toggle(Number(row.dataset.sequence));
    });
    const header = h('div', { class: 'nh-ledger-row nh-ledger-header', role: 'row' },
      ...['#', 'run', 'kind', 'status', 'summary', 'at'].map((c) => h('span', { role: 'columnheader', text: c })));
    this.element = h('section', { class: 'nh-ledger', role: 'table', 'aria-label': payload.runId ? `ledger of run ${payload.runId}` : 'ledger' },
      h('div', { class: 'nh-ledger-filters' }, this.runFilter, this.kindFilter, this.statusFilter, this.textFilter, this.count),
      header,
      this.viewport,
      this.detail);
    if (payload.runId && this.runFilter.querySelector(`option[value="${CSS.escape(payload.runId)}"]`) && uniq((e) => e.runId).length > 1) {
      this.runFilter.value = payload.runId;
    }
    this.applyFilters();
  }

  private applyFilters(): void {
    const run = this.runFilter.value;
    // Options come from the entries, which the shared schema typed when the payload was parsed.
    const kind = this.kindFilter.value as LedgerEventKind | '';
    const status = this.statusFilter.value;
    const text = this.textFilter.value.trim().toLowerCase();
    if (text && !this.searchText) {
      this.searchText = this.entries.map((e) => `${e.sequence} ${e.runId} ${e.kind} ${e.status ?? ''} ${e.summary} ${e.parentId ?? ''}`.toLowerCase());
    }
    const out: number[] = [];
    for (let i = 0; i < this.entries.length; i++) {
      const e = this.entries[i]!;
      if (run && e.runId !== run) continue;
      if (kind && e.kind !== kind) continue;
      if (status && e.status !== status) continue;
      if (text && !this.searchText![i]!.includes(text)) continue;
      out.push(i);
    }
    this.visible = out;
    const flow = out.length <= FLOW_LIMIT;
    this.element.classList.toggle('nh-ledger-flow', flow);
    this.spacer.style.height = flow ? '0px' : `${out.length * LEDGER_ROW_HEIGHT}px`;
    // Fits its rows: a 3-row ledger is 3 rows tall, a long one stops at the viewport limit and scrolls.
    this.viewport.style.height = flow ? '' : `${Math.min(out.length * LEDGER_ROW_HEIGHT, DEFAULT_VIEWPORT)}px`;
    this.element.setAttribute('aria-rowcount', String(out.length));
    this.count.textContent = `${out.length} of ${this.entries.length} entries`;
    this.viewport.scrollTop = 0;
    this.renderedFirst = -1;
    this.render();
  }

  private schedule(): void {
    // Flow mode has every row already; re-rendering on scroll would only drop the focused row's focus.
    if (this.frame || this.flow) return;
    this.frame = requestAnimationFrame(() => {
      this.frame = 0;
      this.render();
    });
  }

  private get flow(): boolean {
    return this.visible.length <= FLOW_LIMIT;
  }

  private render(): void {
    if (this.flow) return this.renderFlow();
    const height = this.viewport.clientHeight || DEFAULT_VIEWPORT;
    const first = Math.max(0, Math.floor(this.viewport.scrollTop / LEDGER_ROW_HEIGHT) - OVERSCAN);
    const last = Math.min(this.visible.length, Math.ceil((this.viewport.scrollTop + height) / LEDGER_ROW_HEIGHT) + OVERSCAN);
    if (first === this.renderedFirst && this.layer.childElementCount === last - first) return;
    this.renderedFirst = first;
    const needed = last - first;
    while (this.pool.length < needed) this.pool.push(this.makeRow());
    while (this.layer.childElementCount > needed) this.layer.lastElementChild!.remove();
    for (let i = 0; i < needed; i++) {
      const row = this.pool[i]!;
      this.fillRow(row, first + i);
      if (row.parentNode !== this.layer) this.layer.appendChild(row);
    }
    this.layer.style.transform = `translateY(${first * LEDGER_ROW_HEIGHT}px)`;
    if (this.detail.parentNode !== this.element) this.element.appendChild(this.detail);
  }

  /** Few rows: every row exists, in normal flow, and the expanded one carries its detail below it. */
  private renderFlow(): void {
    this.layer.style.transform = '';
    const rows = this.visible.map((_, i) => {
      const row = this.pool[i] ?? this.makeRow();
      this.pool[i] = row;
      this.fillRow(row, i);
      return row;
    });
    this.layer.replaceChildren(...rows);
    this.placeDetail();
  }

  private placeDetail(): void {
    if (this.expanded === undefined) {
      this.detail.replaceChildren();
      this.detail.hidden = true;
      return;
    }
    this.detail.hidden = false;
    const row = this.layer.querySelector<HTMLElement>(`.nh-ledger-row[data-sequence="${this.expanded}"]`);
    if (this.flow && row) row.after(this.detail);
    else if (this.detail.parentNode !== this.element) this.element.appendChild(this.detail);
  }

  /** Expands (or collapses) one event: its snapshot as pretty JSON, and the run view node it is about. */
  private toggle(sequence: number): void {
    this.highlighted?.classList.remove('nh-ledger-match');
    this.highlighted = null;
    const entry = this.entries.find((e) => e.sequence === sequence);
    if (!entry || this.expanded === sequence) {
      this.expanded = undefined;
    } else {
      this.expanded = sequence;
      const data = field(entry, 'data');
      const { data: _omit, ...rest } = entry as Record<string, unknown>;
      this.detail.replaceChildren(
        h('div', { class: 'nh-ledger-detail-head' },
          h('strong', { text: `#${entry.sequence} ${entry.kind}` }),
          h('span', { class: 'nh-id', title: entry.runId, text: ` run ${entry.runId}` })),
        h('pre', { class: 'nh-ledger-json', text: prettyJson(data === undefined ? rest : { ...rest, data }) }));
      const node = runViewNode(entry);
      if (node) {
        node.classList.add('nh-ledger-match');
        node.scrollIntoView({ block: 'nearest' });
        this.highlighted = node;
      }
    }
    for (const row of this.layer.querySelectorAll<HTMLElement>('.nh-ledger-row')) row.setAttribute('aria-expanded', String(Number(row.dataset.sequence) === this.expanded));
    this.placeDetail();
  }

  private makeRow(): HTMLElement {
    return h('div', { class: 'nh-ledger-row', role: 'row', tabindex: 0, 'aria-expanded': 'false' },
      ...Array.from({ length: 6 }, () => h('span', { role: 'cell' })));
  }

  private fillRow(row: HTMLElement, position: number): void {
    const e = this.entries[this.visible[position]!]!;
    row.setAttribute('aria-rowindex', String(position + 1));
    row.dataset.sequence = String(e.sequence);
    const cells = row.children;
    cells[0]!.textContent = String(e.sequence);
    cells[1]!.textContent = shortRunId(e.runId, this.labels.get(e.runId));
    cells[1]!.setAttribute('title', e.runId);
    row.setAttribute('aria-expanded', String(e.sequence === this.expanded));
    cells[2]!.textContent = e.kind;
    cells[3]!.textContent = e.status ?? '';
    cells[3]!.className = e.status ? `nh-badge nh-status-${e.status.replace(/[^a-z-]/g, '')}` : '';
    cells[4]!.textContent = e.summary;
    cells[4]!.setAttribute('title', e.summary);
    cells[5]!.textContent = formatAt(e.at);
  }
}
