/**
 * The run ledger as a virtualized table: fixed row height, and only the rows in (or just around) the
 * viewport exist in the DOM, so 10,000 entries scroll as smoothly as 10. Filters narrow an index list;
 * they never touch the DOM rows directly.
 */
import type { LedgerEventKind } from '../../../shared/ledger-events.js';
import type { LedgerEntryPayload, LedgerPayload } from '../../../shared/ui-types.js';
import { h } from '../dom.js';

export const LEDGER_ROW_HEIGHT = 28;
const OVERSCAN = 8;
const DEFAULT_VIEWPORT = 360;

function formatAt(at: string | number): string {
  const date = new Date(at);
  return Number.isNaN(date.getTime()) ? String(at) : date.toISOString().slice(11, 23);
}

function select(label: string, plural: string, values: string[], onChange: () => void): HTMLSelectElement {
  const el = h('select', { 'aria-label': label }, h('option', { value: '', text: `all ${plural}` }), ...values.map((v) => h('option', { value: v, text: v })));
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

  constructor(payload: LedgerPayload) {
    this.entries = [...payload.entries].sort((a, b) => a.sequence - b.sequence);
    const uniq = (pick: (e: LedgerEntryPayload) => string | undefined): string[] =>
      [...new Set(this.entries.map(pick).filter((v): v is string => !!v))].sort();
    const refilter = (): void => this.applyFilters();
    this.runFilter = select('run', 'runs', uniq((e) => e.runId), refilter);
    this.kindFilter = select('kind', 'kinds', uniq((e) => e.kind), refilter);
    this.statusFilter = select('status', 'statuses', uniq((e) => e.status), refilter);
    this.textFilter = h('input', { type: 'search', placeholder: 'Filter text…', 'aria-label': 'filter ledger text', class: 'nh-ledger-search' });
    this.textFilter.addEventListener('input', refilter);
    this.count = h('span', { class: 'nh-ledger-count', 'aria-live': 'polite' });
    this.spacer = h('div', { class: 'nh-ledger-spacer' });
    this.layer = h('div', { class: 'nh-ledger-rows', role: 'rowgroup' });
    this.viewport = h('div', { class: 'nh-ledger-viewport', tabindex: 0, 'aria-label': 'ledger entries' }, this.spacer, this.layer);
    this.viewport.addEventListener('scroll', () => this.schedule(), { passive: true });
    const header = h('div', { class: 'nh-ledger-row nh-ledger-header', role: 'row' },
      ...['#', 'run', 'kind', 'status', 'summary', 'at'].map((c) => h('span', { role: 'columnheader', text: c })));
    this.element = h('section', { class: 'nh-ledger', role: 'table', 'aria-label': payload.runId ? `ledger of run ${payload.runId}` : 'ledger' },
      h('div', { class: 'nh-ledger-filters' }, this.runFilter, this.kindFilter, this.statusFilter, this.textFilter, this.count),
      header,
      this.viewport);
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
    this.spacer.style.height = `${out.length * LEDGER_ROW_HEIGHT}px`;
    this.element.setAttribute('aria-rowcount', String(out.length));
    this.count.textContent = `${out.length} of ${this.entries.length} entries`;
    this.viewport.scrollTop = 0;
    this.renderedFirst = -1;
    this.render();
  }

  private schedule(): void {
    if (this.frame) return;
    this.frame = requestAnimationFrame(() => {
      this.frame = 0;
      this.render();
    });
  }

  private render(): void {
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
  }

  private makeRow(): HTMLElement {
    return h('div', { class: 'nh-ledger-row', role: 'row' },
      ...Array.from({ length: 6 }, () => h('span', { role: 'cell' })));
  }

  private fillRow(row: HTMLElement, position: number): void {
    const e = this.entries[this.visible[position]!]!;
    row.setAttribute('aria-rowindex', String(position + 1));
    row.dataset.sequence = String(e.sequence);
    const cells = row.children;
    cells[0]!.textContent = String(e.sequence);
    cells[1]!.textContent = e.runId;
    cells[2]!.textContent = e.kind;
    cells[3]!.textContent = e.status ?? '';
    cells[3]!.className = e.status ? `nh-badge nh-status-${e.status.replace(/[^a-z-]/g, '')}` : '';
    cells[4]!.textContent = e.summary;
    cells[4]!.setAttribute('title', e.summary);
    cells[5]!.textContent = formatAt(e.at);
  }
}
