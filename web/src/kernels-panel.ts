/**
 * The running kernels, each with a shut-down button: every notebook opened starts a kernel process
 * (a Session and a compiler, ~200 MB), and this is where the operator sees and stops them.
 */
import type { KernelAPI, ServerConnection } from '@jupyterlab/services';
import { button, h } from './dom.js';
import { loadServices } from './services-loader.js';

const REFRESH_MS = 10_000;

export class KernelsPanel {
  readonly element: HTMLElement;
  private readonly list = h('ul', { class: 'kernel-list', 'aria-label': 'running kernels' });
  private timer: ReturnType<typeof setInterval> | undefined;

  constructor(private readonly settings: Promise<ServerConnection.ISettings>, private readonly currentKernelId: () => string | undefined, private readonly notify: (text: string) => void) {
    this.element = h('section', { class: 'kernels-panel', 'aria-label': 'kernels' },
      h('div', { class: 'sidebar-head' }, h('h2', { text: 'Kernels' }),
        button('Refresh kernel list', () => void this.refresh(), { class: 'icon-btn', text: '⟳' })),
      this.list);
  }

  start(): void {
    void this.refresh();
    this.timer ??= setInterval(() => void this.refresh(), REFRESH_MS);
  }

  async refresh(): Promise<void> {
    let kernels: KernelAPI.IModel[];
    try {
      const [{ KernelAPI }, settings] = await Promise.all([loadServices(), this.settings]);
      kernels = await KernelAPI.listRunning(settings);
    } catch (error) {
      this.list.replaceChildren(h('li', { class: 'empty', text: `Cannot list kernels: ${String(error)}` }));
      return;
    }
    const current = this.currentKernelId();
    this.list.replaceChildren(...kernels.map((k) => {
      const mine = k.id === current;
      const since = k.last_activity ? new Date(k.last_activity).toLocaleTimeString() : 'never';
      return h('li', { class: `kernel-item${mine ? ' current' : ''}`, 'data-kernel-id': k.id, 'data-state': k.execution_state ?? 'unknown' },
        h('span', { class: 'kernel-desc', text: `${k.id.slice(0, 8)} · ${k.execution_state ?? '?'} · last active ${since}${mine ? ' · this notebook' : ''}` }),
        button(`Shut down kernel ${k.id.slice(0, 8)}`, () => void this.shutdown(k.id), { class: 'icon-btn', text: '✕' }));
    }));
    if (kernels.length === 0) this.list.replaceChildren(h('li', { class: 'empty', text: 'No kernels running.' }));
  }

  private async shutdown(id: string): Promise<void> {
    try {
      const [{ KernelAPI }, settings] = await Promise.all([loadServices(), this.settings]);
      await KernelAPI.shutdownKernel(id, settings);
    } catch (error) {
      this.notify(`Could not shut down kernel ${id.slice(0, 8)}: ${String(error)}`);
    }
    await this.refresh();
  }

  dispose(): void {
    if (this.timer !== undefined) clearInterval(this.timer);
  }
}
